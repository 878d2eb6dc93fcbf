import type { Actor } from "~/lib/permissions";
import { ForbiddenError, UnauthorizedError } from "./errors.server";

/**
 * The gate at the top of every domain write (docs/decisions/0004-permissions.md): no actor → 401, an
 * actor the rule (from app/lib/permissions.ts) refuses → 403 with `message`. Routes pass the actor
 * they have and never decide themselves.
 */
export function authorize<A extends Actor>(
  actor: A | null | undefined,
  allowed: (actor: A) => boolean,
  message?: string,
  signInMessage?: string,
): asserts actor is A {
  if (!actor) throw new UnauthorizedError(signInMessage);
  if (!allowed(actor)) throw new ForbiddenError(message);
}
