/**
 * A companion place for a parent whose child registered online (issue 39, item 3): find the child (child-finder.tsx),
 * then the parent's name, age and group; the distance is the child's, the price the season's companionPrice (no way
 * of paying is asked while it is 0 kr). Checked on submit with the Worker's own rules (shared/box-office.ts
 * checkCompanionSale); 'Nästa' sends the sale with the id the page made for it, so pressing again after a lost answer
 * is answered with the same sale.
 */
import { useState, type FormEvent } from "react";
import {
  BOX_OFFICE_GROUPS,
  checkCompanionSale,
  type BoxOfficeGroup,
  type BoxOfficeMethod,
  type CompanionSaleBody,
  type QuickRegStarted,
} from "../../../../shared/box-office";
import { SEASON } from "../../../../shared/season";
import { Button } from "../../../components/ui/button";
import { ApiError } from "../../../lib/api";
import { useConfig } from "../../../lib/config/get-config";
import { formatKr } from "../../../lib/format";
import { useStartCompanionSale } from "./api/start-companion-sale";
import { ChildFinder, type ChosenChild } from "./child-finder";
import { DigitsField, METHODS, RadioGroup, TextField } from "./form-fields";

export interface CompanionDraft {
  /** Made once per sale: the same id again is the same sale (a retry after a lost answer). */
  saleId: string;
  child: ChosenChild | null;
  firstname: string;
  lastname: string;
  age: string;
  group: BoxOfficeGroup | "";
  method: BoxOfficeMethod;
}

export function emptyCompanionDraft(): CompanionDraft {
  return { saleId: crypto.randomUUID(), child: null, firstname: "", lastname: "", age: "", group: "", method: "swish" };
}

/** The body the draft sends (the child's distance as shown). */
export function companionSaleBody(d: CompanionDraft): CompanionSaleBody {
  return {
    saleId: d.saleId,
    childId: d.child?.id ?? "",
    firstname: d.firstname,
    lastname: d.lastname,
    age: d.age,
    distance: d.child?.distance ?? "",
    group: d.group,
    method: d.method,
  };
}

const FIELDS: readonly string[] = ["firstname", "lastname", "age", "group", "method"];

/** Messages per field of this form; any other (the child, a refusal of the whole sale) above the button. */
function formErrors(fields: unknown, message?: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, text] of Object.entries(typeof fields === "object" && fields ? fields : {})) {
    if (typeof text !== "string") continue;
    if (FIELDS.includes(key)) found[key] ??= text;
    else found._ ??= text;
  }
  if (message && !Object.values(found).includes(message)) found._ = message;
  return found;
}
const km = (distance: string) => `${distance.replace(".", ",")} km`;

export function CompanionSaleForm(props: {
  draft: CompanionDraft;
  onDraft: (draft: CompanionDraft) => void;
  onStarted: (started: QuickRegStarted) => void;
}) {
  const { draft, onDraft } = props;
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const start = useStartCompanionSale();
  const price = useConfig().data?.season.companionPrice ?? SEASON.companionPrice;
  const child = draft.child;
  const set = <K extends keyof CompanionDraft>(key: K, value: CompanionDraft[K]) => {
    onDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined, _: undefined }));
  };

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // The first field in error gets the focus, so a keyboard or screen-reader user lands on what to fix.
    const show = (found: Record<string, string>) => {
      setErrors(found);
      const first = FIELDS.find((f) => found[f]);
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    };
    const body = companionSaleBody(draft);
    const checked = checkCompanionSale(body);
    if (!checked.ok) return show(formErrors(checked.errors));
    setErrors({});
    start.mutate(body, {
      onSuccess: props.onStarted,
      onError: (err) => show(formErrors(err instanceof ApiError ? err.errors : undefined, err.message)),
    });
  }

  return (
    <section className="companion-sale" aria-labelledby="companion-title">
      <h2 id="companion-title">Springer med barn anmält på nätet</h2>
      <p className="muted">
        En vuxen som springer med ett barn utan att tävla: samma distans som barnet, ingen nummerlapp, ingen tid. Den
        vuxna läggs till i barnets anmälan när det är betalt.
      </p>
      {child ? (
        <p className="companion-chosen">
          <span>
            Springer med{" "}
            <strong>
              {child.firstname} {child.lastname}
            </strong>
            , {km(child.distance)}
            {child.email ? ` (${child.email})` : ""}
          </span>
          <Button variant="text" size="small" onClick={() => onDraft({ ...draft, child: null })}>
            Byt barn
          </Button>
        </p>
      ) : (
        <ChildFinder onChoose={(c) => onDraft({ ...draft, child: c, lastname: draft.lastname || c.lastname })} />
      )}
      {child && (
        <form className="quickreg-form" onSubmit={submit} noValidate aria-label="Den vuxna som springer med">
          <div className="quickreg-row">
            <TextField
              label="Förnamn"
              name="firstname"
              error={errors.firstname}
              value={draft.firstname}
              onChange={(v) => set("firstname", v)}
            />
            <TextField
              label="Efternamn"
              name="lastname"
              error={errors.lastname}
              value={draft.lastname}
              onChange={(v) => set("lastname", v)}
            />
          </div>
          <DigitsField
            name="age"
            label="Ålder"
            hint="År, eller födelseår"
            maxLength={4}
            value={draft.age}
            error={errors.age}
            onChange={(v) => set("age", v)}
          />
          <RadioGroup
            name="group"
            legend="Grupp"
            error={errors.group}
            value={draft.group}
            options={BOX_OFFICE_GROUPS.map((g) => ({ value: g, label: g }))}
            onChange={(v) => set("group", v)}
          />
          {price > 0 && (
            <RadioGroup
              name="method"
              legend="Betalning"
              error={errors.method}
              value={draft.method}
              options={METHODS.filter((m) => m.value !== "kampanj")}
              onChange={(v) => set("method", v)}
              flow
            />
          )}
          <p className="quickreg-price" aria-live="polite">
            Att betala: {formatKr(price)} (springer med barn)
          </p>
          {errors._ && (
            <p className="alert alert-error" role="alert">
              {errors._}
            </p>
          )}
          <Button type="submit" variant="primary" size="large" loading={start.isPending}>
            Nästa
          </Button>
        </form>
      )}
    </section>
  );
}
