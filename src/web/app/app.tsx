/**
 * The app below the router. The router itself is the entry's choice: BrowserRouter in the browser
 * (main.tsx), StaticRouter in the build's pre-render (entry-prerender.tsx), so both render this same tree.
 */
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { SeasonFlagsSync } from "../lib/config/season-flags";
import { AppRoutes } from "./routes";

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SeasonFlagsSync />
      <AppRoutes />
    </QueryClientProvider>
  );
}
