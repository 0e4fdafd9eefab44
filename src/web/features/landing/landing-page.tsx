/**
 * The start page. Everything here is static season facts (src/shared/season.ts), so it is pre-rendered at build
 * and arrives as HTML in the first response; the hero is text, the Largest Contentful Paint of the site.
 * The registration call-to-action is time-dependent: both of its states sit in one reserved grid cell and
 * <html data-registration-button> picks the visible one (see season-flags.tsx), so nothing shifts.
 */
import { Link } from "react-router";
import { SEASON, type DistanceKm } from "../../../shared/season";
import { onSiteRegistrationText } from "../../../shared/season-rules";
import { ButtonLink } from "../../components/ui/button";
import { SITE_NAME } from "../../lib/site";
import { useDocumentTitle } from "../../lib/use-document-title";
import { clockTime, dayAfter, dayAndMonth, kmText, kr, longDate, metresText } from "../../lib/season-text";

const DISTANCE_BLURB: Record<DistanceKm, string> = {
  "0.8": "Kort och snabbt – perfekt för de yngsta löparna.",
  "1.6": "För lite större barn och alla som vill prova på.",
  "2.8": "Ett lagom motionslopp för både stora och små.",
  "5.6": "Den längsta sträckan, för dig som vill ta i ordentligt.",
};

export function LandingPage() {
  useDocumentTitle();
  const { earlyPrice, latePrice, onSitePrice, adultAge, contactEmail } = SEASON;
  const raceDate = longDate(SEASON.raceDay);
  const earlyUntil = dayAndMonth(SEASON.earlyPriceUntil);
  const lateFrom = dayAndMonth(dayAfter(SEASON.earlyPriceUntil));
  const races = [...SEASON.races].sort((a, b) => Number(a.distance) - Number(b.distance));

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-inner">
          <p className="hero-date">{raceDate.charAt(0).toUpperCase() + raceDate.slice(1)}</p>
          <h1 id="hero-title" className="hero-title">
            {SITE_NAME} {SEASON.year}
          </h1>
          <p className="hero-lead">
            Ett lopp för hela familjen – från de minstas 800 meter till 5,6 kilometer för dig som vill ta i. Spring,
            jogga eller gå genom byn tillsammans med grannar, vänner och familj.
          </p>
          <div className="hero-actions">
            <div className="registration-cta">
              <ButtonLink to="/anmalan" variant="primary" size="large" className="registration-cta-open">
                Anmäl dig här
              </ButtonLink>
              <p className="registration-cta-closed">Anmälan är stängd för i år. Tack till alla som sprang!</p>
              <p className="registration-cta-on-site">{onSiteRegistrationText()}</p>
            </div>
            <ButtonLink to="/banor" size="large">
              Se banorna
            </ButtonLink>
          </div>
        </div>
      </section>

      <section className="landing-section" aria-labelledby="om-loppet">
        <h2 id="om-loppet">Om loppet</h2>
        <p>
          {SITE_NAME} är öppet för alla åldrar och alla nivåer – oavsett om du jagar ett nytt personbästa eller bara
          vill ta dig runt i egen takt. Det finns fyra distanser: 0,8, 1,6, 2,8 och 5,6 km. Banorna går på asfalt genom
          byn, och start och mål ligger vid skolans matsal.
        </p>
        <ul className="facts">
          <li>Tidtagning på alla distanser.</li>
          <li>Medalj till alla som går i mål.</li>
          <li>Föräldrar får gärna springa med sina barn – utan att själva tävla.</li>
        </ul>
      </section>

      <section className="landing-section" id="distanser" aria-labelledby="distanser-rubrik">
        <h2 id="distanser-rubrik">Distanser</h2>
        <ul className="distance-list">
          {races.map((r) => (
            <li key={r.distance} className="distance-card">
              <p className="distance-km">{kmText(r.distance)}</p>
              <p className="distance-blurb">{DISTANCE_BLURB[r.distance]}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="starttider">
        <h2 id="starttider">Starttider</h2>
        <table className="table start-times">
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">Distans</th>
            </tr>
          </thead>
          <tbody>
            {races.map((r) => (
              <tr key={r.distance}>
                <td>
                  <time>{r.startTime}</time>
                </td>
                <td>
                  {metresText(r.distance)} <span className="muted">({kmText(r.distance)})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>Kom i god tid! Nummerlappar hämtas från klockan 10:00 på tävlingsdagen.</p>
      </section>

      <section className="landing-section" aria-labelledby="avgifter">
        <h2 id="avgifter">Avgifter</h2>
        <div className="table-scroll">
          <table className="table fee-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Klass</span>
                </th>
                <th scope="col">Till och med {earlyUntil}</th>
                <th scope="col">Från {lateFrom}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Vuxen ({adultAge} år och äldre)</th>
                <td>{kr(earlyPrice.adult)}</td>
                <td>{kr(latePrice.adult)}</td>
              </tr>
              <tr>
                <th scope="row">Barn (under {adultAge} år)</th>
                <td>{kr(earlyPrice.child)}</td>
                <td>{kr(latePrice.child)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p>
          Anmäl dig tidigt – avgiften höjs efter {earlyUntil} klockan {clockTime(SEASON.earlyPriceUntil)}. Du betalar
          med Swish direkt i anmälan. Har du en kampanjkod anger du den innan du betalar.
        </p>
        <p>
          Anmälan på plats på tävlingsdagen: vuxen {kr(onSitePrice.adult)}, barn {kr(onSitePrice.child)}.
        </p>
      </section>

      <section className="landing-section" aria-labelledby="friskvard">
        <h2 id="friskvard">Betala med friskvårdsbidraget (Epassi)</h2>
        <p>Startavgiften kan betalas med ditt friskvårdsbidrag via Epassi. Så här gör du:</p>
        <ol className="steps">
          <li>Betala startavgiften för loppet via Epassi.</li>
          <li>
            Mejla bekräftelsen från Epassi till <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
          </li>
          <li>Du får en kod av oss. Ange koden när du anmäler dig, så är avgiften redan betald.</li>
        </ol>
      </section>

      <section className="landing-section" aria-labelledby="sa-anmaler">
        <h2 id="sa-anmaler">Så anmäler du dig</h2>
        <ol className="steps">
          <li>Ange din e-postadress, så mejlar vi en kod.</li>
          <li>Skriv in koden.</li>
          <li>Lägg till alla löpare i familjen – vuxna och barn – under samma e-postadress.</li>
          <li>Betala med Swish eller med en kod. Klart!</li>
        </ol>
        <p>
          Vill du ändra något i efterhand loggar du in med samma e-postadress under <Link to="/anmalan">Anmälan</Link>.
        </p>
      </section>
    </div>
  );
}
