import { apiRoute } from "@/lib/api/v1/route";
import * as transactions from "@/lib/api/v1/transactions";

export const GET = apiRoute(transactions.listForContact);
