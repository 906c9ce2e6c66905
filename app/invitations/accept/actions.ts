"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { userAction } from "@/lib/adapters/user-action";
import { acceptInvitationFlow } from "@/lib/auth/flows/account-flows";
import { chooseWorkspace } from "@/lib/auth/session";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

/**
 * The invited person accepts (a POST: opening the link alone changes nothing), then works
 * there. A user action: they are in no workspace of it yet; the token and the session decide, and
 * the flow writes the member.joined audit row with the membership.
 */
export const acceptInvitationAction = userAction(
  "accept invitation",
  z.object({ token: z.string().default("") }),
  async ({ token }, { claims, ip }): Promise<FormState> => {
    const { workspaceId } = unwrap(
      await acceptInvitationFlow({ token, userId: claims.sub, email: claims.email }, ip),
    );
    await chooseWorkspace(workspaceId);
    redirect("/contacts");
  },
  { signIn: ({ token }) => `/sign-in?next=${encodeURIComponent(`/invitations/accept?token=${token}`)}` },
);
