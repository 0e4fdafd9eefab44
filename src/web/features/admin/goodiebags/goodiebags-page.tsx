/**
 * /admin/goodiebags: the packing list for race morning, bags per distance for children and adults from the
 * season's paid runners (box office included), with totals, and below it the bags handed out with the bib at the
 * desk and those left, per distance. 'Skriv ut' prints it on one A4 page
 * (goodiebags.css: the admin shell's bar, tabs and the buttons are left out of the print).
 */
import { formatSwedishDateTime } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { LoadState } from "../../../components/ui/load-state";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useGoodieBags, type GoodieBags } from "./api/get-goodiebags";
import "./goodiebags.css";

export default function GoodieBagsPage() {
  useDocumentTitle("Goodiebags");
  const bags = useGoodieBags();

  return (
    <section className="page goodiebags">
      <div className="goodiebags-head">
        <h2>Goodiebags{bags.data ? ` ${bags.data.season}` : ""}</h2>
        <div className="goodiebags-actions no-print">
          <Button variant="primary" onClick={() => window.print()} disabled={!bags.data}>
            Skriv ut
          </Button>
          <Button onClick={() => void bags.refetch()} loading={bags.isFetching && !bags.isPending}>
            Uppdatera
          </Button>
        </div>
      </div>
      <LoadState query={bags} loading="Räknar goodiebags …" />
      {bags.data && <PackingList bags={bags.data} />}
    </section>
  );
}

function PackingList({ bags }: { bags: GoodieBags }) {
  const { adultAge, totals, boxOffice } = bags;
  return (
    <>
      <p className="goodiebags-lead">
        Packlista för loppdagen: betalda deltagare per distans, barn (under {adultAge} år) och vuxna ({adultAge} år och
        äldre); med barn: vuxna som springer med ett barn utan att tävla. Löpare som betalat i biljettkassan räknas med.
        Utdelade: löparen har hämtat nummerlappen vid disken (påsen följer med); kvar: ännu inte hämtade.
      </p>
      <div className="table-scroll">
        <table className="table goodiebags-table goodiebags-packing">
          <caption className="visually-hidden">Goodiebags per distans</caption>
          <thead>
            <tr>
              <th scope="col">Distans</th>
              <th scope="col" className="num">
                Barn
              </th>
              <th scope="col" className="num">
                Vuxna
              </th>
              <th scope="col" className="num">
                Med barn
              </th>
              <th scope="col" className="num">
                Totalt
              </th>
            </tr>
          </thead>
          <tbody>
            {bags.distances.map((d) => (
              <tr key={d.distance}>
                <th scope="row">{d.label}</th>
                <td className="num">{d.barn}</td>
                <td className="num">{d.vuxna}</td>
                <td className="num">{d.medBarn}</td>
                <td className="num total">{d.total}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Totalt</th>
              <td className="num">{totals.barn}</td>
              <td className="num">{totals.vuxna}</td>
              <td className="num">{totals.medBarn}</td>
              <td className="num total">{totals.total}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {/* The desk's progress in a table of its own: six columns would not fit a phone without scrolling sideways. */}
      <div className="table-scroll">
        <table className="table goodiebags-table goodiebags-desk">
          <caption className="visually-hidden">Goodiebags utdelade vid nummerlappsdisken per distans</caption>
          <thead>
            <tr>
              <th scope="col">Distans</th>
              <th scope="col" className="num">
                Utdelade
              </th>
              <th scope="col" className="num">
                Kvar
              </th>
            </tr>
          </thead>
          <tbody>
            {bags.distances.map((d) => (
              <tr key={d.distance}>
                <th scope="row">{d.label}</th>
                <td className="num">{d.handedOut}</td>
                <td className="num total">{d.total - d.handedOut}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Totalt</th>
              <td className="num">{totals.handedOut}</td>
              <td className="num total">{totals.total - totals.handedOut}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="goodiebags-note">
        Varav biljettkassan: {boxOffice.barn} barn, {boxOffice.vuxna} vuxna
        {boxOffice.medBarn > 0 && `, ${boxOffice.medBarn} med barn`}.
        {totals.total === 0 && " Inga betalda deltagare ännu."}
      </p>
      <p className="goodiebags-note muted">Räknat {formatSwedishDateTime(bags.generatedAt)}.</p>
    </>
  );
}
