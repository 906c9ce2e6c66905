"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { acceptInvitationFlow } from "@/lib/auth/flows/account-flows";
import { chooseWorkspace, getClaims } from "@/lib/auth/session";
import { unwrap } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";

/**
 * The invited person accepts (a POST: opening the link alone changes nothing), then works
 * there. Public: they are in no workspace of it yet; the token and the session decide, and the
 * flow writes the member.joined audit row with the membership.
 */
export const acceptInvitationAction = publicAction(
  "accept invitation",
  z.object({ token: z.string().default("") }),
  async ({ token }): Promise<FormState> => {
    const claims = await getClaims();
    if (!claims) redirect(`/sign-in?next=${encodeURIComponent(`/invitations/accept?token=${token}`)}`);
    const { workspaceId } = unwrap(
      await acceptInvitationFlow(
        { token, userId: claims.sub, email: claims.email },
        clientIp(await headers()),
      ),
    );
    await chooseWorkspace(workspaceId);
    redirect("/contacts");
  },
);
