/**
 * The family's check-in QR for the bib desk ('Nummerlappar'), once the registration is paid: the same QR and code
 * as on the receipt e-mail. The image comes from the site (`/api/checkin-qr/{code}.svg`), drawn from the code alone.
 */
import { formatCheckinCode } from "../../../shared/checkin";

export function CheckinQr({ code }: { code: string }) {
  const printed = formatCheckinCode(code);
  return (
    <section className="reg-checkin" aria-labelledby="reg-checkin-title">
      <h3 id="reg-checkin-title">Nummerlappar</h3>
      <p>Visa QR-koden vid nummerlappsdisken på loppdagen (från 10:00), så får ni era nummerlappar.</p>
      <img
        className="reg-checkin-qr"
        src={`/api/checkin-qr/${printed}.svg`}
        width={200}
        height={200}
        alt={`QR-kod för incheckning: ${printed}`}
      />
      <p>
        Koden: <strong className="reg-checkin-code">{printed}</strong>
      </p>
    </section>
  );
}
