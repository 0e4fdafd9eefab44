/**
 * /tidtagning. A lazy chunk (visitors who never open it never download timing code). The stopwatch screen is
 * a later issue; it replaces this file's content and keeps the default export.
 */
import { ComingSoon } from "../coming-soon";

export default function TimingPage() {
  return <ComingSoon title="Tidtagning" />;
}
