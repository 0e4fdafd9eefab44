/**
 * A race object as the Worker's routes see it, for the workerd tests: `run` with the command's own answer and each
 * read with its value, the race's refusals thrown as the Worker's ApiError (through the Worker's own `answered`).
 */
import { env } from "cloudflare:workers";
import type { AnswerOf, RaceCommand } from "../../src/durable/race/commands";
import type { ChangeAuthor, RaceAnswer } from "../../src/durable/race/types";
import { answered, type RaceObject } from "../../src/worker/race-day/race-runners";

type Reads = {
  [K in Exclude<keyof RaceObject, "run">]: RaceObject[K] extends (...args: infer A) => Promise<RaceAnswer<infer T>>
    ? (...args: A) => Promise<T>
    : never;
};

export type TestRace = Reads & {
  run<C extends RaceCommand>(command: C, by?: ChangeAuthor): Promise<AnswerOf<C>>;
};

/** The race object named `name` (a race id, or any name for an object D1 does not know). */
export function testRace(name: string): TestRace {
  const stub = env.RACE.getByName(name) as unknown as Record<
    string,
    (...args: unknown[]) => Promise<RaceAnswer<unknown>>
  >;
  return new Proxy({} as TestRace, {
    get: (_target, method) =>
      // Not a thenable: an async function may return the race itself.
      method === "then" || typeof method !== "string"
        ? undefined
        : (...args: unknown[]) => answered(stub[method]!(...args)),
  });
}
