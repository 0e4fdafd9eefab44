/**
 * A race room on Node's SQLite for the rules' tests: a race made as the object makes it (from D1's index, with the
 * runners D1 already places in it), a clock the test moves, and commands run as the Worker runs them, their
 * refusals thrown as the room's RaceError.
 */
import { expect } from "vitest";
import type { AnswerOf, RaceCommand } from "../../src/durable/race/commands";
import { RaceRoom, type Applied } from "../../src/durable/race/room";
import type { ChangeAuthor, KnownParticipant, RunnerInput } from "../../src/durable/race/types";
import { raceId } from "../../src/shared/race-id";
import type { RaceAuditEvent, RaceEvent, Retime, RetimeConfirm } from "../../src/shared/race-protocol";
import { nodePorts, type NodePorts } from "./node-ports";

/** A clock that stands still until the test moves it. */
export class TestClock {
  constructor(private at = Date.UTC(2030, 4, 18, 10, 0, 0)) {}
  now(): number {
    return this.at;
  }
  advance(ms: number): number {
    this.at += ms;
    return this.at;
  }
  set(at: number): void {
    this.at = at;
  }
}

export const ADMIN: ChangeAuthor = { actor: "arrangor@example.se", device: "phone-a" };

export interface TestRoom {
  room: RaceRoom;
  clock: TestClock;
  ports: NodePorts;
  part: string;
  /** A command as a route runs it: its answer, or the race's refusal thrown. */
  run<C extends RaceCommand>(command: C, by?: ChangeAuthor): AnswerOf<C>;
  /** A command with what it owes (events, mirrors, mail), for tests of what a change causes. */
  apply<C extends RaceCommand>(command: C, by?: ChangeAuthor): Applied<AnswerOf<C>>;
  /** The audit trail's event types, oldest first. */
  auditTypes(): string[];
  /** The audit trail's rows of one type, payloads parsed. */
  audit(type: string): (RaceAuditEvent & { data: Record<string, unknown> })[];
}

let races = 0;

/** A race of its own (a distinct date), made as the object makes itself from D1's index. */
export function newRoom(
  options: {
    meters?: number;
    clock?: TestClock;
    known?: KnownParticipant[];
    state?: string;
    started?: number | null;
    openForReg?: boolean;
  } = {},
): TestRoom {
  races += 1;
  const meters = options.meters ?? 5600;
  const date = `2030-${String(1 + (Math.floor(races / 28) % 12)).padStart(2, "0")}-${String((races % 28) + 1).padStart(2, "0")}`;
  const part = raceId(date, meters);
  const clock = options.clock ?? new TestClock();
  const ports = nodePorts();
  const room = new RaceRoom(ports.sql, ports.kv, clock);
  room.migrate();
  room.create(
    {
      part,
      date,
      distance: meters,
      openForReg: options.openForReg ?? false,
      state: options.state,
      started: options.started,
    },
    options.known ?? [],
    { actor: "system" },
  );
  return {
    room,
    clock,
    ports,
    part,
    run: (command, by = ADMIN) => room.apply(command, by).value,
    apply: (command, by = ADMIN) => room.apply(command, by),
    auditTypes: () => room.events().map((e) => e.type),
    audit: (type) =>
      room
        .events()
        .filter((e) => e.type === type)
        .map((e) => ({ ...e, data: JSON.parse(e.payload) as Record<string, unknown> })),
  };
}

let ids = 0;

/** A runner as a registration or the race screen adds one (a fresh id each time). */
export function runner(fields: Partial<RunnerInput> = {}): RunnerInput {
  ids += 1;
  return {
    id: `runner-id-${ids}-${Math.random().toString(36).slice(2, 8)}`,
    firstname: "Ella",
    lastname: `Ek${ids}`,
    age: 12,
    company: "",
    group: "Dam",
    bib: null,
    ...fields,
  };
}

/** A tap id as a phone makes one. */
export function tapId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** The refusal a call throws: its status and Swedish message. */
export function refusal(call: () => unknown): { status: number; message: string } {
  try {
    call();
  } catch (err) {
    const e = err as { name?: string; status?: number; message: string };
    expect(e.name, e.message).toBe("RaceError");
    return { status: e.status!, message: e.message };
  }
  throw new Error("expected the race to refuse the call");
}

/**
 * An action that re-times runners it does not name (src/durable/race/rules/retime.ts): it is refused first, with
 * nothing changed, listing who would get which time; then sent again confirming exactly that list.
 */
export function confirmed<C extends RaceCommand>(
  race: TestRoom,
  command: C,
  by: ChangeAuthor = ADMIN,
): { retimes: Retime[]; applied: Applied<AnswerOf<C>> } {
  const before = race.room.events().length;
  const retimes = retimesOf(() => race.room.apply(command, by));
  expect(race.room.events()).toHaveLength(before);
  return { retimes, applied: race.room.apply({ ...command, confirm: confirmationOf(retimes) }, by) };
}

/** The list a call is refused with because it would re-time runners it does not name. */
export function retimesOf(call: () => unknown): Retime[] {
  try {
    call();
  } catch (err) {
    const e = err as { name?: string; status?: number; retimes?: Retime[] };
    expect(e.name).toBe("RaceError");
    expect(e.status).toBe(409);
    expect(e.retimes, "the refusal lists who would get a new time").toBeDefined();
    return e.retimes!;
  }
  throw new Error("the action should have asked for a confirmation");
}

/** What the phone sends once the organiser has confirmed the list. */
export function confirmationOf(retimes: readonly Retime[]): RetimeConfirm[] {
  return retimes.map((r) => ({ runnerId: r.runnerId, to: r.to }));
}

/** Applies event frames as a phone does: by sort, a removal deletes, an older seq never overwrites a newer. */
export function applyEvents(frames: RaceEvent[][]): Map<string, RaceEvent> {
  const state = new Map<string, RaceEvent>();
  for (const frame of frames) {
    for (const event of frame) {
      const known = state.get(event.sort);
      if (known && known.seq > event.seq) continue;
      state.set(event.sort, event);
    }
  }
  for (const [sort, e] of state) if ("removed" in e) state.delete(sort);
  return state;
}
