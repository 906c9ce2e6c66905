import { createHash, timingSafeEqual } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * The embedded database's door (docs/decisions.md "The embedded database"): pglite-socket answers
 * any client that connects, as superuser, and has no authentication of its own. This TCP server
 * speaks the start of the Postgres protocol itself: it declines TLS, asks for the password
 * (AuthenticationCleartextPassword, on the loopback only), and only for the right one opens a
 * connection to PGlite's socket (a Unix socket in a private directory) and joins the two, replaying
 * the client's startup message so PGlite answers it. A wrong password or any other first message
 * is refused as Postgres refuses it (28P01), and nothing reaches the database.
 */
export async function startGate(options: {
  host: string;
  port: number;
  password: string;
  /** where PGlite's own socket listens */
  target: string;
}): Promise<{ server: Server; address: string; close(): Promise<void> }> {
  const expected = digest(options.password);
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.once("close", () => open.delete(client));
    admit(client, expected, options.target);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    server,
    address: `${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
/** A client that has not proved itself within this time is let go. */
const AUTH_TIMEOUT_MS = 10_000;
const MAX_STARTUP_BYTES = 10_000;

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Reads the client's first messages; on the right password, joins it to PGlite. */
function admit(client: Socket, expected: Buffer, target: string): void {
  let buffered = Buffer.alloc(0);
  let startup: Buffer | null = null;
  let user = "";
  const timer = setTimeout(() => client.destroy(), AUTH_TIMEOUT_MS);
  client.once("close", () => clearTimeout(timer));
  client.on("error", () => client.destroy());

  const refuse = (code: string, message: string) => {
    clearTimeout(timer);
    client.off("data", onData);
    client.end(errorResponse(code, message));
  };

  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (true) {
      if (!startup) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (length < 8 || length > MAX_STARTUP_BYTES) return refuse("08P01", "invalid startup packet");
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          client.write("N"); // no encryption on the loopback; the client goes on in the clear
          continue;
        }
        if (code !== PROTOCOL_3) return refuse("08P01", "unsupported frontend protocol");
        startup = Buffer.from(message);
        user = startupParameter(startup, "user");
        client.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])); // R: cleartext password, please
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered[0] !== 0x70 || length < 5 || length > MAX_STARTUP_BYTES)
        return refuse("28P01", `password authentication failed for user "${user}"`);
      if (buffered.length < length + 1) return;
      const given = buffered.subarray(5, length + 1 - 1); // without its terminating zero
      const rest = buffered.subarray(length + 1);
      if (!timingSafeEqual(digest(given.toString("utf8")), expected))
        return refuse("28P01", `password authentication failed for user "${user}"`);
      clearTimeout(timer);
      client.off("data", onData);
      client.pause();
      join(client, target, Buffer.concat([startup, rest]));
      return;
    }
  };
  client.on("data", onData);
}

/** The client, admitted, joined to PGlite's socket: the startup message first, then both ways. */
function join(client: Socket, target: string, first: Buffer): void {
  const database = connect(target, () => {
    database.write(first);
    client.pipe(database);
    database.pipe(client);
    client.resume();
  });
  const end = () => {
    client.destroy();
    database.destroy();
  };
  database.on("error", end);
  database.on("close", end);
  client.on("close", end);
}

function startupParameter(message: Buffer, name: string): string {
  const fields = message.subarray(8).toString("utf8").split("\0");
  const at = fields.indexOf(name);
  return at >= 0 && at % 2 === 0 ? (fields[at + 1] ?? "") : "";
}

/** A FATAL ErrorResponse, as a Postgres server sends it before closing. */
function errorResponse(code: string, message: string): Buffer {
  const body = Buffer.concat([
    ...[`SFATAL`, `VFATAL`, `C${code}`, `M${message}`].map((field) => Buffer.from(`${field}\0`, "utf8")),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
