import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { observeRequest } from "@/lib/observability/observe-request";
import { routeAppError, routeErrorResponse } from "./route-errors";

export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export interface PublicRouteOptions<P extends z.ZodType> {
  /** the route's path parameters; one that does not parse (a malformed id) is a 404 */
  params?: P;
  /** names the route in the log line of an unexpected error */
  name: string;
  /**
   * How an error reads to this route's caller when not as the JSON envelope: a person who
   * followed a link from an email gets a readable page, a plain HTML form post a redirect back.
   * `params` are undefined when they did not parse.
   */
  refusal?: (error: AppError, request: Request, params: z.output<P> | undefined) => Response;
}

/**
 * The one way a public route handler runs (visitors, embeds, provider webhooks, the public
 * API): parse the path parameters, run `fn`, map errors (routeErrorResponse). Public routes
 * authenticate by what they receive (a signature, a key, a token), inside `fn`, and open their
 * transactions through their flows. It adds no query and no work beside the parameters' parse
 * (the form endpoint is benchmarked against the health route, docs/performance.md).
 *
 * The request and context are optional in the handler's type so a handler that reads neither
 * (a preflight, a static document) can be called bare, as Next never does but a test may.
 */
export function publicRoute<P extends z.ZodType = z.ZodType<Record<string, never>>>(
  options: PublicRouteOptions<P>,
  fn: (request: Request, params: z.output<P>) => Promise<Response>,
): (request?: Request, context?: RouteContext) => Promise<Response> {
  return async (request = new Request("http://localhost/"), context) =>
    observeRequest(options.name, request, async () => {
      let params: z.output<P> | undefined;
      try {
        params = (await parseParams(options.params, context)) as z.output<P>;
        return await fn(request, params);
      } catch (error) {
        unstable_rethrow(error);
        if (!options.refusal) return routeErrorResponse(options.name, request, error);
        return options.refusal(routeAppError(options.name, request, error), request, params);
      }
    });
}

/** Path parameters through their schema: anything that does not parse is not found. */
export async function parseParams<P extends z.ZodType>(
  schema: P | undefined,
  context: RouteContext | undefined,
): Promise<z.output<P> | Record<string, never>> {
  const raw = (await context?.params) ?? {};
  if (!schema) return {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("not_found");
  return parsed.data;
}
