import { useRouteLoaderData } from "react-router";
import type { Role } from "./roles";

export interface ClientUser {
  id: string;
  email: string;
  role: Role;
  canEdit: boolean;
}

/** The signed-in user as the root loader saw it, or null. For showing and hiding UI only. */
export function useOptionalUser(): ClientUser | null {
  const data = useRouteLoaderData("root") as { user: ClientUser | null } | undefined;
  return data?.user ?? null;
}
