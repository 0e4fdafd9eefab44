/**
 * /admin/list-by-race ('Anmälningar'): a season's registrations in the spec's two overview variants, switched by
 * tabs (`?vy=betalda` keeps the second across reloads, `?season=YYYY` another season): all registrations grouped
 * 5.6, 2.8, 1.6, 0.8 and 'nok', or the paid runners one per row; a third tab (`?vy=kassa`) lists the box office's
 * sales, so they can be refunded here too. The heading has the paid runners and the paid
 * sum; the race-splitter component and the exports sit on top; the search filters the loaded season as one types.
 * The rules live in src/shared/registrations-overview.ts. A lazy chunk inside the admin shell.
 */
import { useCallback, useDeferredValue, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import {
  filterGroups,
  filterParticipantRows,
  groupByDistance,
  overviewTotals,
  paidParticipantRows,
  withRunners,
} from "../../../../shared/registrations-overview";
import { SEASON } from "../../../../shared/season";
import { Button } from "../../../components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useRegistrations } from "./api/get-registrations";
import { kronor } from "./overview-words";
import { BoxOfficeSales } from "./box-office-sales";
import { RaceSplitter } from "./race-splitter";
import { RegistrationDialog, type DialogTarget } from "./registration-dialogs";
import { GroupedList, PaidList } from "./registration-rows";
import "./registrations.css";

/** The seasons offered: this one and the five before it. */
const SEASONS = Array.from({ length: 6 }, (_, i) => SEASON.year - i);

type View = "alla" | "betalda" | "kassa";

export default function RegistrationsPage() {
  useDocumentTitle("Anmälningar");
  const [params, setParams] = useSearchParams();
  const wanted = Number(params.get("season"));
  const season = SEASONS.includes(wanted) ? wanted : SEASON.year;
  const wantedView = params.get("vy");
  const view: View = wantedView === "betalda" || wantedView === "kassa" ? wantedView : "alla";
  const [query, setQuery] = useState("");
  const search = useDeferredValue(query);
  const [target, setTarget] = useState<DialogTarget | null>(null);
  const registrations = useRegistrations(season);

  const list = useMemo(() => withRunners(registrations.data ?? []), [registrations.data]);
  const totals = useMemo(() => overviewTotals(list), [list]);
  const allGroups = useMemo(() => groupByDistance(list), [list]);
  const groups = useMemo(() => filterGroups(allGroups, search), [allGroups, search]);
  const allPaidRows = useMemo(() => paidParticipantRows(list), [list]);
  const paidRows = useMemo(() => filterParticipantRows(allPaidRows, search), [allPaidRows, search]);
  const byId = useMemo(() => new Map(list.map((r) => [r.id, r])), [list]);

  const open = useCallback((kind: DialogTarget["kind"], registrationId: string) => {
    setTarget({ kind, registrationId });
  }, []);

  function setParam(key: string, value: string | null) {
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  }

  // A family under two distances is one registration.
  const foundRegistrations = useMemo(
    () => new Set(groups.flatMap((g) => g.rows.map((row) => row.registration.id))).size,
    [groups],
  );
  const shownCount = view === "alla" ? foundRegistrations : paidRows.length;
  const shownTotal = view === "alla" ? list.length : allPaidRows.length;
  // The paid-only list shows adults running with a child too (marked); its count names them apart.
  const paidCompanionRows = allPaidRows.filter((r) => r.runner.companion === true).length;

  return (
    <section className="page registrations" aria-labelledby="registrations-title">
      <h2 id="registrations-title">Anmälningar {season}</h2>
      <RaceSplitter season={season} />

      <div className="reg-toolbar">
        <label className="field reg-season">
          <span className="field-label">Säsong</span>
          <select
            value={season}
            onChange={(e) => setParam("season", e.target.value === String(SEASON.year) ? null : e.target.value)}
          >
            {SEASONS.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </label>
        <label className="field reg-search">
          <span className="field-label">Sök namn eller e-post</span>
          <input
            type="search"
            value={query}
            autoComplete="off"
            spellCheck={false}
            placeholder="t.ex. Anna eller anna@exempel.se"
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
      </div>

      {registrations.isPending && <p role="status">Hämtar anmälningar …</p>}
      {registrations.isError && (
        <div className="alert alert-error" role="alert">
          <p>{registrations.error.message}</p>
          <Button size="small" onClick={() => void registrations.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {registrations.data && (
        <>
          <h3 className="reg-summary">
            {totals.paidParticipants} betalda deltagare
            {totals.paidCompanions > 0 && ` (och ${totals.paidCompanions} vuxna som springer med barn)`} ·{" "}
            {kronor(totals.paidSum)}
            {totals.refunded > 0 && <span className="reg-refunded"> ({kronor(totals.refunded)} återbetalt)</span>}
          </h3>
          <Tabs value={view} onValueChange={(v) => setParam("vy", v === "betalda" || v === "kassa" ? v : null)}>
            <TabsList aria-label="Vy">
              <TabsTrigger value="alla">Per distans</TabsTrigger>
              <TabsTrigger value="betalda">Betalda löpare</TabsTrigger>
              <TabsTrigger value="kassa">Biljettkassan</TabsTrigger>
            </TabsList>
            <p className="muted reg-count" role="status" hidden={view === "kassa"}>
              {search.trim()
                ? `${shownCount} av ${shownTotal} ${view === "alla" ? "anmälningar" : "deltagare"} matchar ”${search.trim()}”.`
                : view === "alla"
                  ? `${shownTotal} anmälningar.`
                  : `${shownTotal - paidCompanionRows} betalda deltagare` +
                    (paidCompanionRows > 0 ? ` och ${paidCompanionRows} som springer med barn.` : ".")}
            </p>
            <TabsContent value="alla">
              <GroupedList groups={groups} onOpen={open} resetKey={`${season}|${search}`} />
            </TabsContent>
            <TabsContent value="betalda">
              <PaidList rows={paidRows} onOpen={open} resetKey={`${season}|${search}`} />
            </TabsContent>
            <TabsContent value="kassa">
              <BoxOfficeSales season={season} active={view === "kassa"} />
            </TabsContent>
          </Tabs>
        </>
      )}
      <RegistrationDialog
        target={target}
        registration={target ? byId.get(target.registrationId) : undefined}
        onClose={() => setTarget(null)}
      />
    </section>
  );
}
