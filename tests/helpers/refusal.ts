import { AppError } from "@/lib/errors/app-error";

/**
 * A typed result's refusal (`{ error: AppError }`, or a thrown AppError) as what a caller sees:
 * the status its code maps to, the code and the message; null when the result is no refusal.
 */
export function refusal(result: unknown): { status: number; code: string; error: string } | null {
  const error = result instanceof AppError ? result : (result as { error?: unknown } | null)?.error;
  return error instanceof AppError ? { status: error.status, code: error.code, error: error.message } : null;
}
