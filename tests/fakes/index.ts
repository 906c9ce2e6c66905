import { startFakeResend } from "./resend";
import { startFakeEventbrite } from "./eventbrite";

/**
 * Local HTTP servers standing in for Stripe, Eventbrite and Resend, the only fakes in
 * the project. Each provider module adds itself here; `env` points the app at them.
 */
export interface RunningFakes {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startFakes(): Promise<RunningFakes> {
  const stops: (() => Promise<void>)[] = [];
  const env: Record<string, string> = {};
  const resend = await startFakeResend();
  stops.push(resend.stop);
  Object.assign(env, resend.env);
  const eventbrite = await startFakeEventbrite();
  stops.push(eventbrite.stop);
  Object.assign(env, eventbrite.env);
  return {
    env,
    async stop() {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
