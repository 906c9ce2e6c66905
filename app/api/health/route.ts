// The no-database route the benchmarks compare every endpoint against.
export function GET() {
  return Response.json({ ok: true });
}
