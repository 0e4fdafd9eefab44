/** /admin/email-previous-runners ('Maila tidigare löpare'): a lazy chunk inside the admin shell. */
import { MassEmailPage } from "./mass-email-page";

export default function PreviousRunnersEmailPage() {
  return <MassEmailPage audience="previous" />;
}
