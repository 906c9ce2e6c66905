import { z } from "zod";
import { isTimeZone } from "@/lib/time/zones";

const name = z.string().trim().max(100, "Use at most 100 characters.");

export const updateProfileSchema = z.object({
  firstName: name.optional().default(""),
  lastName: name.optional().default(""),
  timezone: z
    .string({ error: "Choose your time zone." })
    .refine(isTimeZone, "Choose a time zone from the list (an IANA name such as Europe/Berlin)."),
});

export type UpdateProfileInput = z.input<typeof updateProfileSchema>;
