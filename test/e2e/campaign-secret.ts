/**
 * The CAMPAIGN_CODES secret the e2e server is started with (global-setup.ts): test words that the bundle test
 * (client-bundle.test.ts) must not find in the built client, beside the development Worker's demo words. The build
 * runs with this secret in its environment too, so a build step that copied it in would be caught.
 */
export const E2E_CAMPAIGN_CODES = {
  HEMLIGE2E7: { rule: "flat50" },
  GRATISE2E9: { rule: "free", maxUses: 2 },
} as const;
