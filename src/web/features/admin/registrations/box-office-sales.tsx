/**
 * The season's box-office sales on /admin/list-by-race (tab 'Biljettkassan', `?vy=kassa`): each sale's runner and
 * payment, so a Swish sale can be refunded from the admin screens too, and its runner deregistered (issue 24). Cash
 * and campaign-code sales are listed for the record; only Swish can pay back.
 */
import { Button } from "../../../components/ui/button";
import { useBoxOfficeSales } from "./api/get-box-office-sales";
import { fullName, km, kronor } from "./overview-words";
import { PaymentCard } from "./registration-dialogs";

const METHOD_WORDS = { swish: "Swish", kontant: "Kontant", kampanj: "Kampanjkod" } as const;

export function BoxOfficeSales({ season, active }: { season: number; active: boolean }) {
  const sales = useBoxOfficeSales(season, active);
  if (sales.isPending) return <p role="status">Hämtar biljettkassans försäljning …</p>;
  if (sales.isError) {
    return (
      <div className="alert alert-error" role="alert">
        <p>{sales.error.message}</p>
        <Button size="small" onClick={() => void sales.refetch()}>
          Försök igen
        </Button>
      </div>
    );
  }
  if (sales.data.length === 0) return <p className="muted reg-empty">Ingen försäljning i biljettkassan.</p>;
  return (
    <ul className="box-office-sales" aria-label="Biljettkassans försäljning">
      {sales.data.map(({ payment, runner }) => (
        <li key={payment.id} className="box-office-sale">
          <h3 className="box-office-sale-title">
            {runner ? `${fullName(runner)}, ${km(runner)}` : "Okänd löpare"} · {METHOD_WORDS[payment.method]}{" "}
            {kronor(payment.amount)}
          </h3>
          <PaymentCard payment={payment} selected={false} runners={runner ? [runner] : []} />
        </li>
      ))}
    </ul>
  );
}
