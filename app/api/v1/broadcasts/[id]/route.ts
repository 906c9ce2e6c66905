// DESIGN section 8, "Email engagement": a broadcast with its stats (scope email:read).
export { getBroadcastRoute as GET } from "@/lib/api/v1/broadcasts/handlers";
