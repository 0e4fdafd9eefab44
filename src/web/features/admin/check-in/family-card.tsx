/**
 * One family at the desk: its runners with distance, bib and whether they have picked up; 'Hämtat' per runner
 * or for the whole family, 'Ångra' per runner; a bib for a runner without one (the next free number of the
 * distance in one tap, or a typed one). An unpaid family is shown as such and sent to the box office. A family
 * that has picked up says so ('Redan hämtat 10:42') instead of offering it again.
 */
import { useState } from "react";
import { Link } from "react-router";
import type { DeskFamily, DeskRunner } from "../../../../shared/checkin";
import { distanceLabel, toDistance } from "../../../../shared/distances";
import { stockholmParts } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { useServerClock } from "../../../lib/config/server-clock";
import { deviceId } from "../../../lib/device-id";
import { useGiveBib } from "./api/give-bib";
import { makeActionId, type PendingPickup } from "./desk-queue";
import { useQueryClient } from "@tanstack/react-query";
import { familyQueryOptions } from "./api/get-family";
import { withRunners } from "./desk-queue";

export function pickupClock(ms: number): string {
  return stockholmParts(ms).time;
}

function distanceText(d: string): string {
  const km = toDistance(d);
  return km ? distanceLabel(km) : `${d} km`;
}

export interface FamilyCardProps {
  family: DeskFamily;
  /** Runners with an action still on its way to the server. */
  unsent: ReadonlySet<string>;
  onAction: (action: PendingPickup) => void;
}

export function FamilyCard({ family, unsent, onAction }: FamilyCardProps) {
  const clock = useServerClock();
  // Who has something to pick up: the runners in a race, and the paid adults running with a child (in none).
  const inRace = family.runners.filter((r) => r.raceId !== null || (r.companion && r.paid && !r.deregistered));
  const waiting = inRace.filter((r) => r.pickedUpAt === null && !r.dns);
  const picked = inRace.filter((r) => r.pickedUpAt !== null);
  const allPicked = inRace.length > 0 && waiting.length === 0 && picked.length > 0;
  const firstPick = picked.length ? Math.min(...picked.map((r) => r.pickedUpAt!)) : null;

  const act = (runners: DeskRunner[], pickedUp: boolean) =>
    onAction({
      family: { kind: family.kind, id: family.id },
      runners: runners.map((r) => ({ id: r.id, raceId: r.companion ? null : r.raceId! })),
      pickedUp,
      actionId: makeActionId(),
      // Whole milliseconds: the server clock's offset is measured at a request's midpoint and may be fractional.
      at: Math.round(clock.now()),
      device: deviceId(),
    });

  const heading =
    family.kind === "kassa" ? `Biljettkassan${family.phone ? `, tel. ${family.phone}` : ""}` : (family.email ?? "");

  return (
    <section className="checkin-family" aria-labelledby="checkin-family-title">
      <header className="checkin-family-head">
        <h3 id="checkin-family-title">{heading}</h3>
        <span className={family.paid ? "checkin-badge is-paid" : "checkin-badge is-unpaid"}>
          {family.paid ? "Betald" : "Ej betald"}
        </span>
      </header>

      {allPicked && firstPick !== null && (
        <p className="alert alert-info checkin-already" role="status">
          Redan hämtat {pickupClock(firstPick)}
        </p>
      )}
      {!family.paid && (
        <div className="alert alert-warning checkin-unpaid" role="status">
          <p>
            {family.runners.some((r) => r.paid)
              ? "Någon i familjen är inte betald och betalar i kassan."
              : `Anmälan är inte betald${family.paymentStatus ? ` (${family.paymentStatus})` : ""}. Familjen betalar i kassan.`}
          </p>
          {family.kind === "anmalan" && (
            <Link className="btn btn-primary" to={`/admin/kassa?fran=${encodeURIComponent(family.id)}`}>
              Till kassan
            </Link>
          )}
        </div>
      )}

      <ul className="checkin-runners">
        {family.runners.map((r) => (
          <RunnerRow
            key={r.id}
            family={family}
            runner={r}
            unsent={unsent.has(r.id)}
            onPickUp={() => act([r], true)}
            onUndo={() => act([r], false)}
          />
        ))}
      </ul>

      {waiting.length > 1 && (
        <Button variant="primary" size="large" className="checkin-all" onClick={() => act(waiting, true)}>
          Hämtat – hela familjen ({waiting.length})
        </Button>
      )}
    </section>
  );
}

interface RunnerRowProps {
  family: DeskFamily;
  runner: DeskRunner;
  unsent: boolean;
  onPickUp: () => void;
  onUndo: () => void;
}

function RunnerRow({ family, runner: r, unsent, onPickUp, onUndo }: RunnerRowProps) {
  return (
    <li
      className={[
        "checkin-runner",
        r.pickedUpAt !== null ? "is-picked" : "",
        r.raceId !== null && r.bib === null ? "needs-bib" : "",
      ]
        .filter(Boolean)
        .join(" ")}
    >
      <div className="checkin-runner-who">
        <strong>
          {r.firstname} {r.lastname}
        </strong>
        <span className="muted">
          {distanceText(r.distance)} · {r.age} år
        </span>
      </div>
      <div className="checkin-runner-bib">
        {r.deregistered ? (
          <span className="muted">Avregistrerad</span>
        ) : !r.paid ? (
          <span className="checkin-badge is-unpaid">Ej betald</span>
        ) : r.companion ? (
          <span className="muted" title="Springer med barn utan att tävla: ingen nummerlapp">
            Med barn
          </span>
        ) : r.raceId === null ? (
          <span className="muted">Inte i något lopp</span>
        ) : r.bib !== null ? (
          <span className="checkin-bib" aria-label={`Startnummer ${r.bib}`}>
            {r.bib}
          </span>
        ) : (
          <BibControls family={family} runner={r} />
        )}
      </div>
      <div className="checkin-runner-state">
        {r.raceId === null && !(r.companion && r.paid && !r.deregistered) ? null : r.pickedUpAt !== null ? (
          <>
            <span className="checkin-picked">
              Hämtat {pickupClock(r.pickedUpAt)}
              {unsent ? " (ej skickat)" : ""}
            </span>
            <Button size="small" variant="text" onClick={onUndo}>
              Ångra
            </Button>
          </>
        ) : r.dns ? (
          <span className="muted">DNS</span>
        ) : (
          <Button onClick={onPickUp}>Hämtat</Button>
        )}
      </div>
    </li>
  );
}

function BibControls({ family, runner }: { family: DeskFamily; runner: DeskRunner }) {
  const queryClient = useQueryClient();
  const give = useGiveBib();
  const [typed, setTyped] = useState("");
  const done = (updated: DeskRunner) =>
    queryClient.setQueryData(familyQueryOptions(family).queryKey, (old: DeskFamily | undefined) =>
      old ? withRunners(old, [updated]) : old,
    );
  const send = (bib: number | "next") =>
    give.mutate({ raceId: runner.raceId!, runnerId: runner.id, bib }, { onSuccess: done });
  return (
    <div className="checkin-bib-controls">
      <Button size="small" loading={give.isPending && give.variables?.bib === "next"} onClick={() => send("next")}>
        Nästa nummer
      </Button>
      <form
        className="checkin-bib-typed"
        onSubmit={(e) => {
          e.preventDefault();
          if (/^\d{1,5}$/.test(typed)) send(Number(typed));
        }}
      >
        <input
          inputMode="numeric"
          maxLength={5}
          aria-label={`Startnummer för ${runner.firstname} ${runner.lastname}`}
          placeholder="Nr"
          value={typed}
          onChange={(e) => setTyped(e.target.value.replace(/\D/g, ""))}
        />
        <Button size="small" type="submit" disabled={!typed}>
          Ange
        </Button>
      </form>
      {give.isError && (
        <p className="field-error" role="alert">
          {give.error.message}
        </p>
      )}
    </div>
  );
}
