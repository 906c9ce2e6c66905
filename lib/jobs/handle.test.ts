import { expect, test } from "vitest";
import { z } from "zod";
import { defineQueue, VERSION_KEY } from "./contract";
import { JobPayloadError, readPayload } from "./handle";

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
