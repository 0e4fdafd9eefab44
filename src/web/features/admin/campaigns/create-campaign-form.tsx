/** The form for a new campaign code. Checked here first with the server's rules, in Swedish, then by the server. */
import { useState, type FormEvent } from "react";
import { CAMPAIGN_NOTE_MAX, isValidCampaignCode, isValidMaxUses, normalizeCode } from "../../../../shared/campaign";
import type { CampaignRule } from "../../../../shared/season";
import { isIsoDate } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import type { NewCampaign } from "../../../../shared/api-answers";
import { useCreateCampaign } from "./api/create-campaign";
import { RULE_WORDS } from "./campaign-words";

const FIELDS = ["code", "rule", "validUntil", "maxUses", "note"] as const;
/** Per field, plus `_` for a message that belongs to no field. */
type Errors = Partial<Record<(typeof FIELDS)[number] | "_", string>>;

interface Draft {
  code: string;
  rule: CampaignRule | "";
  validUntil: string;
  maxUses: string;
  note: string;
}

const EMPTY: Draft = { code: "", rule: "", validUntil: "", maxUses: "", note: "" };

const FORM_MESSAGES = {
  code: "Koden ska vara 3–20 tecken, bara A–Z och 0–9.",
  rule: "Välj en regel.",
  validUntil: "Ange sista giltighetsdag som ÅÅÅÅ-MM-DD.",
  maxUses: "Ange högsta antal användningar som ett heltal 1–100000, eller lämna tomt.",
  note: "Anteckningen får vara högst 200 tecken.",
} as const;

function checkDraft(d: Draft): { ok: true; value: NewCampaign } | { ok: false; errors: Errors } {
  const errors: Errors = {};
  const code = normalizeCode(d.code);
  if (!isValidCampaignCode(code)) errors.code = FORM_MESSAGES.code;
  if (d.rule === "") errors.rule = FORM_MESSAGES.rule;
  if (d.validUntil !== "" && !isIsoDate(d.validUntil)) errors.validUntil = FORM_MESSAGES.validUntil;
  const maxUses = d.maxUses.trim() === "" ? null : Number(d.maxUses);
  if (maxUses !== null && !isValidMaxUses(maxUses)) {
    errors.maxUses = FORM_MESSAGES.maxUses;
  }
  if (d.note.trim().length > CAMPAIGN_NOTE_MAX) errors.note = FORM_MESSAGES.note;
  if (Object.keys(errors).length > 0 || d.rule === "") return { ok: false, errors };
  return {
    ok: true,
    value: { code, rule: d.rule, validUntil: d.validUntil || null, maxUses, note: d.note.trim() },
  };
}

function serverErrors(err: unknown): Errors {
  if (!(err instanceof ApiError)) return { _: "Något gick fel. Försök igen." };
  const fields = err.errors;
  const out: Errors = {};
  if (typeof fields === "object" && fields !== null) {
    for (const [key, message] of Object.entries(fields)) {
      if (typeof message !== "string") continue;
      const field = FIELDS.find((f) => f === key) ?? "_";
      out[field] ??= message;
    }
  }
  if (Object.keys(out).length === 0) out._ = err.message;
  return out;
}

export function CreateCampaignForm() {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateCampaign();

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined, _: undefined }));
    setCreated(null);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    create.mutate(checked.value, {
      onSuccess: (campaign) => {
        setDraft(EMPTY);
        setErrors({});
        setCreated(campaign.code);
      },
      onError: (err) => setErrors(serverErrors(err)),
    });
  }

  return (
    <form className="campaign-form" onSubmit={submit} noValidate aria-labelledby="new-campaign-title">
      <h3 id="new-campaign-title">Ny kampanjkod</h3>
      <Field label="Kod" error={errors.code}>
        {(control) => (
          <input
            {...control}
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            className="campaign-code-input"
            value={draft.code}
            onChange={(e) => set("code", e.target.value.toUpperCase())}
          />
        )}
      </Field>
      <Field label="Regel" error={errors.rule}>
        {(control) => (
          <select
            {...control}
            name="rule"
            value={draft.rule}
            onChange={(e) => set("rule", e.target.value as Draft["rule"])}
          >
            <option value="">Välj regel …</option>
            {(Object.keys(RULE_WORDS) as CampaignRule[]).map((rule) => (
              <option key={rule} value={rule}>
                {RULE_WORDS[rule]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="field-row">
        <Field label="Giltig till och med" error={errors.validUntil} hint="Tomt: hela säsongen">
          {(control) => (
            <input
              {...control}
              type="date"
              name="validUntil"
              value={draft.validUntil}
              onChange={(e) => set("validUntil", e.target.value)}
            />
          )}
        </Field>
        <Field label="Max antal användningar" error={errors.maxUses} hint="Tomt: obegränsat">
          {(control) => (
            <input
              {...control}
              name="maxUses"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              value={draft.maxUses}
              onChange={(e) => set("maxUses", e.target.value.replace(/\D/g, ""))}
            />
          )}
        </Field>
      </div>
      <Field label="Anteckning" error={errors.note} hint="Till exempel vem koden är till (visas bara här)">
        {(control) => (
          <input
            {...control}
            name="note"
            autoComplete="off"
            maxLength={200}
            value={draft.note}
            onChange={(e) => set("note", e.target.value)}
          />
        )}
      </Field>
      {errors._ && (
        <p className="alert alert-error" role="alert">
          {errors._}
        </p>
      )}
      {created && (
        <p className="alert alert-success" role="status">
          Kampanjkoden {created} är skapad.
        </p>
      )}
      <Button type="submit" variant="primary" loading={create.isPending}>
        Skapa kod
      </Button>
    </form>
  );
}
