import type { JobWithMetadata } from "pg-boss";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { refused } from "@/lib/errors/app-error";
import { defineQueue, VERSION_KEY } from "./contract";
import { handle, JobPayloadError, readPayload, settleJob } from "./handle";
import { done, failed, outcomeOf, retry, type JobOutcome } from "./outcome";

const contract = defineQueue({
  name: "probe",
  version: 2,
  schema: z.object({ id: z.string(), count: z.number().int() }),
  options: {},
});

test("a payload of the contract's version is read as its schema gives it", () => {
  expect(readPayload(contract, { id: "a", count: 3, [VERSION_KEY]: 2 })).toEqual({ id: "a", count: 3 });
});

test("a payload the schema refuses is a JobPayloadError naming each refused field", () => {
  const read = () => readPayload(contract, { id: 7, [VERSION_KEY]: 2 });
  expect(read).toThrow(JobPayloadError);
  expect(read).toThrow(
    "The 'probe' job's payload does not match its contract (version 2): " +
      "id: Invalid input: expected string, received number; count: Invalid input: expected number, received undefined",
  );
});

test("an older or unreadable version is a JobPayloadError; a job without one is version 1", () => {
  for (const version of [1, "2", 2.5, null]) {
    expect(() => readPayload(contract, { id: "a", count: 1, [VERSION_KEY]: version })).toThrow(
      JobPayloadError,
    );
  }
  expect(() => readPayload(contract, { id: "a", count: 1 })).toThrow(
    "The 'probe' job has payload version 1; this worker reads version 2 only.",
  );
});

test("a newer version is a plain error, so that the job is retried for a newer worker", () => {
  const read = () => readPayload(contract, { id: "a", count: 1, [VERSION_KEY]: 3 });
  expect(read).toThrow("newer than this worker's 2: left to a newer worker.");
  expect(read).not.toThrow(JobPayloadError);
});

describe("one job outcome, mapped to the engine once (settleJob)", () => {
  const job = (data: unknown) => ({ id: "j1", name: "probe", data }) as unknown as JobWithMetadata<unknown>;
  const payload = { id: "a", count: 1, [VERSION_KEY]: 2 };
  const settle = (run: () => Promise<JobOutcome>) => settleJob(handle(contract as never, run), job(payload));

  test("done completes the job with its output", async () => {
    expect(await settle(async () => done({ sent: 3 }))).toEqual({
      id: "j1",
      status: "completed",
      output: { sent: 3 },
    });
  });

  test("retry fails the attempt, which the engine retries, with its code", async () => {
    expect(await settle(async () => retry("provider_failed", "Resend: 503"))).toEqual({
      id: "j1",
      status: "failed",
      output: { code: "provider_failed", message: "Resend: 503" },
    });
  });

  test("failed fails the job at once, without retries", async () => {
    expect(await settle(async () => failed("invalid", "No email column."))).toEqual({
      id: "j1",
      status: "deadletter",
      output: { code: "invalid", message: "No email column." },
    });
  });

  test("a throw is an unexpected failure of the attempt: retried, code internal", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(
      await settle(async () => {
        throw new Error("connection lost");
      }),
    ).toEqual({ id: "j1", status: "failed", output: { code: "internal", message: "connection lost" } });
    error.mockRestore();
  });

  test("a payload its contract refuses fails at once, code invalid", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await settleJob(
      handle(contract as never, async () => done()),
      job({ id: 7, [VERSION_KEY]: 2 }),
    );
    expect(result).toMatchObject({ id: "j1", status: "deadletter", output: { code: "invalid" } });
    error.mockRestore();
  });

  test("a refusal maps by its code, never its message", () => {
    expect(outcomeOf(refused("not_found", "Connect Eventbrite first."), ["not_found"])).toEqual(done());
    expect(outcomeOf(refused("not_found", "anything else"), ["not_found"])).toEqual(done());
    expect(outcomeOf(refused("provider_failed", "Connect Eventbrite first."), ["not_found"])).toMatchObject({
      status: "retry",
      code: "provider_failed",
    });
    expect(outcomeOf({ data: 1 })).toEqual(done(1));
  });
});
