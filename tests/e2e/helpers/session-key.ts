/**
 * The key the e2e app signs sessions with (AUTH_SECRET): playwright.config.ts sets it for the
 * server it starts and for the specs' workers, which sign sessions with it (`newAccount`,
 * helpers/accounts.ts). A server started by someone else passes its own (scripts/test-topology.ts).
 */
export const E2E_AUTH_SECRET = "e2e-session-key-for-tests-only-0123456789";
