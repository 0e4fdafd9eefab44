/** /allmanna-villkor: the general terms, static and pre-rendered. Dates and prices come from the season. */
import { PHOTO_RETENTION_DAYS } from "../../../shared/finish-photos";
import { SEASON } from "../../../shared/season";
import { SITE_NAME } from "../../lib/site";
import { useDocumentTitle } from "../../lib/use-document-title";
import { clockTime, dayAndMonth, kr, longDate } from "../../lib/season-text";

export function TermsPage() {
  useDocumentTitle("Allmänna villkor");
  const { contactEmail, adultAge } = SEASON;
  const mailto = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article className="page prose">
      <h1>Allmänna villkor</h1>
      <p>
        Villkoren gäller för anmälan till {SITE_NAME} {SEASON.year}, som går {longDate(SEASON.raceDay)}. Genom att
        anmäla dig själv eller andra godkänner du villkoren.
      </p>

      <h2>Anmälan</h2>
      <p>
        Flera löpare, vuxna och barn, kan anmälas under samma e-postadress. Den som anmäler ansvarar för att uppgifterna
        stämmer och för att de anmälda – eller vårdnadshavare för barn under 18 år – godkänner villkoren. Barn räknas
        som under {adultAge} år vid anmälan.
      </p>
      <p>
        Anmälan på webben stänger {dayAndMonth(SEASON.lastRegistration)} klockan {clockTime(SEASON.lastRegistration)}.
        Därefter går det bra att anmäla sig på plats på tävlingsdagen.
      </p>

      <h2>Avgifter och betalning</h2>
      <p>
        Startavgiften är {kr(SEASON.earlyPrice.adult)} för vuxna och {kr(SEASON.earlyPrice.child)} för barn till och med{" "}
        {dayAndMonth(SEASON.earlyPriceUntil)}, därefter {kr(SEASON.latePrice.adult)} respektive{" "}
        {kr(SEASON.latePrice.child)}. På plats kostar det {kr(SEASON.onSitePrice.adult)} för vuxna och{" "}
        {kr(SEASON.onSitePrice.child)} för barn. Avgiften betalas med Swish eller med en kod (kampanjkod eller kod för
        friskvårdsbidrag). Anmälan gäller när avgiften är betald.
      </p>

      <h2>Återbud och återbetalning</h2>
      <p>
        Startavgiften återbetalas normalt inte vid återbud. Blir du skadad eller sjuk, hör av dig till {mailto} så
        hittar vi en lösning. Ställer vi in loppet får du tillbaka avgiften.
      </p>

      <h2>Ändringar</h2>
      <p>
        Du kan ändra dina löpares uppgifter, till exempel distans eller förening, så länge anmälan är öppen. Logga in
        med samma e-postadress under Anmälan.
      </p>

      <h2>Hälsa och säkerhet</h2>
      <p>
        Du deltar på egen risk och ansvarar för att din hälsa tillåter att du springer. Banorna går på vägar genom byn:
        följ funktionärernas anvisningar och var uppmärksam på trafik. Vuxna ansvarar för barnen de springer med.
      </p>

      <h2>Personuppgifter</h2>
      <p>
        Vi sparar uppgifterna du lämnar – namn, ålder, förening, e-postadress och betalningsuppgifter – för att
        genomföra loppet: startlistor, tidtagning, resultat och kontakt med dig. Namn, klass, förening och tid
        publiceras i startlistor och resultatlistor här på webbplatsen. Vi kan mejla dig inför nästa års lopp; varje
        sådant utskick har en länk för att avregistrera sig. Vill du se, rätta eller ta bort dina uppgifter, mejla{" "}
        {mailto}.
      </p>

      <h2>Bilder</h2>
      <p>
        Vi fotograferar under loppet och bilderna kan publiceras i galleriet. Vill du att en bild tas bort, mejla{" "}
        {mailto}.
      </p>
      {SEASON.finishPhotos && (
        <p>
          Målfoto: tidtagarnas telefoner fotograferar målgången vid varje måltid, för att avgöra vilken tid som hör till
          vilket startnummer. Målfotona publiceras aldrig och visas bara för arrangörerna. De raderas senast{" "}
          {PHOTO_RETENTION_DAYS} dagar efter loppet. Målfoton av dig eller ditt barn ingår när du begär ut eller tar
          bort era uppgifter.
        </p>
      )}

      <h2>Kontakt</h2>
      <p>Frågor om villkoren eller din anmälan besvaras på {mailto}.</p>
    </article>
  );
}
