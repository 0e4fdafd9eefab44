/**
 * /startlistor (spec, public site "Start lists"): one heading per year, newest first; tabs per distance; nothing
 * is fetched until a distance is picked; 'Sök löpare' filters every list that is open. Pre-rendered at build with
 * its heading, text and search field; the years come from `/api/races` into the place of the loading line, below
 * everything already on screen. (Pre-rendering the current
 * season's tabs was tried: a year after it, e.g. a race an organiser adds for next year, then lands above them and
 * pushes the page down, and a tab tapped before the script has started does nothing anyway.)
 */
import { useDeferredValue, useState } from "react";
import { LoadState } from "../../components/ui/load-state";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useDocumentTitle } from "../../lib/use-document-title";
import { RunnerSearch, RunnerSearchField } from "../../components/runner-search/runner-search";
import { usePublicRaces } from "./api/get-public-races";
import { groupRacesByYear, raceTabLabels, type RaceYear } from "./start-list";
import { StartList } from "./start-list-table";

export default function StartListsPage() {
  useDocumentTitle("Startlistor");
  const races = usePublicRaces();
  // As a transition (React splits it into short tasks), so the list arriving on a slow phone is no long task.
  const data = useDeferredValue(races.data);
  const years = data ? groupRacesByYear(data) : [];

  return (
    <section className="page start-lists-page">
      <h1>Startlistor</h1>
      <p className="page-lead">
        Alla anmälda löpare per lopp och distans. När ett lopp har startat visas tiderna här efter hand som löparna går
        i mål.
      </p>
      <RunnerSearch>
        <RunnerSearchField hint="Söker i de startlistor som är öppna." />
        {years.map((group) => (
          <YearStartLists key={group.year} group={group} />
        ))}
      </RunnerSearch>
      {data === undefined && <LoadState query={races} loading="Hämtar loppen …" className="start-lists-loading" />}
      {data?.length === 0 && <p className="start-lists-loading">Det finns inga lopp ännu.</p>}
    </section>
  );
}

function YearStartLists({ group }: { group: RaceYear }) {
  // No distance is open at first (spec: "Prompt to click a distance to fetch the list").
  const [open, setOpen] = useState("");
  const labels = raceTabLabels(group.races);
  const headingId = `startlistor-${group.year}`;
  const promptId = `${headingId}-val`;
  return (
    <section className="year-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{group.year}</h2>
      <Tabs value={open} onValueChange={setOpen}>
        <TabsList aria-label={`Distanser ${group.year}`} aria-describedby={open ? undefined : promptId}>
          {group.races.map((race) => (
            <TabsTrigger key={race.part} value={race.part} data-live={race.state === "started" || undefined}>
              {labels.get(race.part)}
              {race.state === "started" && <span className="live-dot" aria-hidden="true" />}
            </TabsTrigger>
          ))}
        </TabsList>
        {open === "" && (
          <p id={promptId} className="tabs-prompt muted">
            Klicka på en distans för att hämta startlistan.
          </p>
        )}
        {group.races.map((race) => (
          <TabsContent key={race.part} value={race.part}>
            <StartList part={race.part} />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
