import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { startFakeEventbrite } from "./eventbrite";
import { startFakeResend } from "./resend";
import { startStripeFake } from "./stripe";

/**
 * Local HTTP servers standing in for Stripe, Eventbrite and Resend, the only fakes in
 * the project. Each provider module adds itself here; `env` points the app at them.
 */
export interface RunningFakes {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startFakes(): Promise<RunningFakes> {
  const fakes = [await startFakeResend(), await startFakeEventbrite(), await startStripeFake()];
  const env: Record<string, string> = Object.assign({}, ...fakes.map((f) => f.env));

  // The e2e tests run in another process than the fakes: they find the fakes' addresses here.
  const file = path.join(process.cwd(), ".data", `fakes-${process.env.PORT ?? "default"}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(env));

  return {
    env,
    async stop() {
      await Promise.all(fakes.map((f) => f.stop()));
    },
  };
}
