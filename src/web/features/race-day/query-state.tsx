/** What a race-day screen shows while its data loads, or when loading failed: a status line, or the error and a retry. */
import { Button } from "../../components/ui/button";

interface Loadable {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

export function QueryState({ query, loading }: { query: Loadable; loading: string }) {
  if (query.isError) {
    return (
      <div className="alert alert-error" role="alert">
        <p>{query.error?.message}</p>
        <Button size="small" onClick={() => void query.refetch()}>
          Försök igen
        </Button>
      </div>
    );
  }
  return query.isPending ? <p role="status">{loading}</p> : null;
}
