/**
 * Local HTTP servers standing in for Stripe, Eventbrite and Resend, the only fakes in
 * the project. Each provider module adds itself here; `env` points the app at them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { startStripeFake } from "./stripe";

export interface RunningFakes {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startFakes(): Promise<RunningFakes> {
  const stops: (() => Promise<void>)[] = [];
  const env: Record<string, string> = {};

  const stripe = await startStripeFake();
  stops.push(stripe.stop);
  Object.assign(env, stripe.env);

  // The e2e tests run in another process than the fakes: they find the fakes' addresses here.
  const file = path.join(process.cwd(), ".data", `fakes-${process.env.PORT ?? "default"}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(env));

  return {
    env,
    async stop() {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
