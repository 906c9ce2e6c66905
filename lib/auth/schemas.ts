import { z } from "zod";

export const emailSchema = z
  .string({ error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .max(254, "That email address is too long.")
  .pipe(z.email({ error: "Enter a valid email address." }));

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
});

export const signUpSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: "Choose a password." })
    .min(8, "Use at least 8 characters for your password.")
    .max(200, "That password is too long."),
  firstName: z.string().trim().max(100).optional().default(""),
  lastName: z.string().trim().max(100).optional().default(""),
  workspaceName: z.string().trim().min(1, "Name your workspace.").max(200, "That name is too long."),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;

const newPassword = z
  .string({ error: "Choose a password." })
  .min(8, "Use at least 8 characters for your password.")
  .max(200, "That password is too long.");
const linkToken = z.string({ error: "This link is not valid." }).min(1, "This link is not valid.").max(200);

export const confirmSignUpSchema = z.object({
  token: linkToken,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(200),
});
export const requestResetSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({ token: linkToken, password: newPassword });
export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Enter your current password." }).min(1, "Enter your current password."),
  newPassword,
});
