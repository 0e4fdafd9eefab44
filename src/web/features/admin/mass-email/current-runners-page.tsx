/** /admin/email-runners ('Maila registrerade löpare'): a lazy chunk inside the admin shell. */
import { MassEmailPage } from "./mass-email-page";

export default function CurrentRunnersEmailPage() {
  return <MassEmailPage audience="current" />;
}
