/** What a public screen shows while a query loads, or when it failed: a status line, or the error and a retry. */
import { Button } from "./button";

interface Loadable {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

export function LoadState({ query, loading, className }: { query: Loadable; loading: string; className?: string }) {
  if (query.isError) {
    return (
      <div className={["alert alert-error", className].filter(Boolean).join(" ")} role="alert">
        <p>{query.error?.message}</p>
        <Button size="small" onClick={() => void query.refetch()}>
          Försök igen
        </Button>
      </div>
    );
  }
  return query.isPending ? (
    <p className={["muted", className].filter(Boolean).join(" ")} role="status">
      {loading}
    </p>
  ) : null;
}
