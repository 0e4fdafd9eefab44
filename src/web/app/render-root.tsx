/**
 * The HTML of #root for a path, with every lazy chunk and Suspense boundary resolved: the build's pre-render
 * (entry-prerender.tsx, in Node) and the Worker's data pages (entry-server.tsx, on workerd) render the same tree
 * the browser hydrates (main.tsx), from the query cache they are given.
 */
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router";
import type { QueryClient } from "@tanstack/react-query";
import { App } from "./app";

export async function renderRoot(path: string, queryClient: QueryClient): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <App queryClient={queryClient} />
      </StaticRouter>
    </StrictMode>,
    // Every Suspense boundary in place: React otherwise moves a large one (a page full of data) to the end with an
    // inline script to put it back, which the Content Security Policy does not run.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
