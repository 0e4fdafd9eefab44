/** The wire shapes of the registration calls (spec §7; DESIGN.md: wire names as the spec). */
import type { RunnerFields } from "../../../../shared/registration-schema";
import type { Registration, RegistrationRunner } from "../../../../shared/registration-view";

export type { Registration };

/** A runner with its paid status (paid by its payment, booked price, deregistered by a refund). */
export type Runner = RegistrationRunner;

/** A runner of the family's last season, offered back with the age already moved on by the server. */
export type PreviousRunner = RunnerFields;
