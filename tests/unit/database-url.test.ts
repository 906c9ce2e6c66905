import { describe, expect, test } from "vitest";
import { unixSocket } from "@/lib/db/client";

describe("DATABASE_URL: libpq's ?host=/socket/dir reaches a local server through its Unix socket", () => {
  test("a host directory becomes the socket path, and is not sent to the server as a setting", () => {
    expect(unixSocket("postgres://postgres@localhost/crm?host=/var/run/postgresql")).toEqual({
      url: "postgres://postgres@localhost/crm",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
  });

  test("the URL's port names the socket file; other parameters are kept", () => {
    expect(unixSocket("postgres://u:p@localhost:6543/crm?sslmode=disable&host=/tmp")).toEqual({
      url: "postgres://u:p@localhost:6543/crm?sslmode=disable",
      path: "/tmp/.s.PGSQL.6543",
    });
  });

  test("a TCP URL is used as it is", () => {
    const url = "postgres://postgres@127.0.0.1:5432/crm?host=db.example.com";
    expect(unixSocket(url)).toEqual({ url });
    expect(unixSocket("postgres://postgres@127.0.0.1:5432/crm")).toEqual({
      url: "postgres://postgres@127.0.0.1:5432/crm",
    });
  });
});
