import { QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // One retry: a phone on a shaky connection gets a second chance, a real error shows quickly.
      queries: { retry: 1, refetchOnWindowFocus: true },
    },
  });
}
