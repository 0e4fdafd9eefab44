/**
 * GET /api/config: who the visitor is (isAdmin and the admin's role, isLoggedIn), where the sockets live (wsUrl), the server's
 * clock and the season's time-dependent switches. Every arrival is broadcast as the window event `config`
 * (spec: "JSON broadcast as the detail of a window event named config").
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminRole } from "../../../shared/admin-roles";
import { api } from "../api";
import type { ConfigDistance, ConfigSeason, Config } from "../../../shared/api-answers";
export type { ConfigDistance, ConfigSeason, Config };

/** What the hooks hand out: the wire config plus how far the server clock is ahead of this device's. */
export interface LoadedConfig extends Config {
  /** Server time minus device time, in ms, measured at the midpoint of the request. */
  serverOffsetMs: number;
}

const CONFIG_EVENT = "config";

export async function getConfig(): Promise<LoadedConfig> {
  const sentAt = Date.now();
  const config = await api<Config>("/api/config");
  const receivedAt = Date.now();
  const server = typeof config.serverTime === "number" ? config.serverTime : Date.parse(config.serverTime);
  // Half the round trip is the best guess of when the server read its clock (NTP's symmetric-delay assumption).
  const serverOffsetMs = Number.isFinite(server) ? server - (sentAt + receivedAt) / 2 : 0;
  window.dispatchEvent(new CustomEvent(CONFIG_EVENT, { detail: config }));
  return { ...config, serverOffsetMs };
}

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ["config"],
    queryFn: getConfig,
    staleTime: 30_000,
    // The button and banner switch at fixed moments; a periodic refresh keeps an open tab honest.
    refetchInterval: 5 * 60_000,
  });

/** The config; `data` is undefined until it arrives (and always on the server render). */
export function useConfig() {
  return useQuery(configQueryOptions());
}

/**
 * The signed-in admin's role (issue 43), for hiding what the role may not do: the Worker refuses it regardless. A
 * server from before the roles sends none; its admins could do everything.
 */
export function useAdminRole(): AdminRole {
  return useConfig().data?.adminRole ?? "organiser";
}
