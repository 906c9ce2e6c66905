import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { deliverWebhook, RESPONSE_EXCERPT_BYTES } from "@/lib/webhooks/outbound/deliver-webhook";
import { AppError } from "@/lib/errors/app-error";
import {
  checkWebhookUrl,
  isPublicAddress,
  UnsafeDestinationError,
} from "@/lib/webhooks/outbound/destination";
import { newSigningSecret } from "@/lib/webhooks/outbound/signing-secret";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base: string;
const received: Received[] = [];
let answer: (res: import("node:http").ServerResponse) => void = (res) => res.end("ok");

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => {
  vi.unstubAllEnvs();
  received.length = 0;
  answer = (res) => res.end("ok");
});

const message = { id: "msg_2Kq3", body: JSON.stringify({ type: "contact.created", data: { id: "c1" } }) };

describe("outbound webhooks: destination safety", () => {
  test.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
  ])("%s is not a public address", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])("%s is a public address", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  test("an endpoint URL naming a loopback, private or metadata address is refused when saved", () => {
    for (const url of [
      "http://127.0.0.1:9/x",
      "https://169.254.169.254/latest",
      "https://[::1]/",
      "https://10.0.0.5/",
    ])
      expect(checkWebhookUrl(url)).toEqual({
        error: new AppError("invalid", new UnsafeDestinationError().message),
      });
    expect(checkWebhookUrl("https://localhost/hook")).toEqual({
      error: new AppError("invalid", new UnsafeDestinationError().message),
    });
    expect(checkWebhookUrl("https://user:pw@example.com/")).toEqual({
      error: new AppError("invalid", "The webhook URL must not contain a user name or password."),
    });
    expect(checkWebhookUrl("not a url")).toEqual({
      error: new AppError("invalid", "Enter a full URL, such as https://example.com/webhooks/crm."),
    });
    expect(checkWebhookUrl("https://hooks.example.com/crm#x")).toEqual({
      data: "https://hooks.example.com/crm",
    });
  });

  test("https only in production", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(checkWebhookUrl("http://hooks.example.com/crm")).toEqual({
      error: new AppError("invalid", "The webhook URL must start with https://."),
    });
    expect(checkWebhookUrl("https://hooks.example.com/crm")).toEqual({
      data: "https://hooks.example.com/crm",
    });
  });

  test("a delivery to 127.0.0.1 is refused at connection time and the receiver gets nothing", async () => {
    const attempt = await deliverWebhook(`${base}/hook`, newSigningSecret(), message);
    expect(attempt).toMatchObject({ ok: false, status: null, refused: true });
    expect(received).toHaveLength(0);
  });

  test("a host name that resolves to 127.0.0.1 (DNS rebinding) is refused after resolution", async () => {
    const port = (server.address() as AddressInfo).port;
    const attempt = await deliverWebhook(`http://localhost:${port}/hook`, newSigningSecret(), message);
    expect(attempt).toMatchObject({ ok: false, refused: true });
    expect(received).toHaveLength(0);
  });
});

describe("outbound webhooks: Standard Webhooks signatures and bounded answers", () => {
  test("the receiver's own library verifies the signature; webhook-id is the message id", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
    const secret = newSigningSecret();
    const attempt = await deliverWebhook(`${base}/hook`, secret, message);
    expect(attempt).toMatchObject({ ok: true, status: 200, excerpt: "ok", refused: false });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    expect(body).toBe(message.body);
    expect(headers["webhook-id"]).toBe("msg_2Kq3");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(secret).verify(body, headers as Record<string, string>);
    expect(verified).toEqual(JSON.parse(message.body));
    // another secret does not verify it
    expect(() => new Webhook(newSigningSecret()).verify(body, headers as Record<string, string>)).toThrow();
  });

  test("a 500 is a failed attempt with its status and the start of its body", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
    answer = (res) => {
      res.statusCode = 500;
      res.end("boom");
    };
    const attempt = await deliverWebhook(`${base}/hook`, newSigningSecret(), message);
    expect(attempt).toMatchObject({ ok: false, status: 500, excerpt: "boom", refused: false });
  });

  test("a receiver answering 8 MB: only the excerpt is kept", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
    answer = (res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const write = () => {
        while (sent < 128 && res.write(chunk)) sent++;
        if (sent < 128) res.once("drain", write);
        else res.end();
      };
      res.on("error", () => {});
      write();
    };
    const attempt = await deliverWebhook(`${base}/hook`, newSigningSecret(), message);
    expect(attempt.ok).toBe(true);
    expect(attempt.excerpt.length).toBe(RESPONSE_EXCERPT_BYTES);
  });
});
