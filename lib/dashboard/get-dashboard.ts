import type { Db } from "@/lib/db/doors";
import { listNotifications, type NotificationItem } from "@/lib/notifications/list-notifications";
import {
  formActivity,
  moneySummary,
  openReviewTasks,
  upcomingEvents,
  type FormDay,
  type MoneySummary,
  type UpcomingEvent,
} from "./activity-stats";
import { consentShare, contactsBySource, type ConsentShare, type DailySourceCount } from "./contact-stats";
import type { Period } from "./dashboard-period";

export interface Dashboard {
  period: Period;
  contactsBySource: DailySourceCount[];
  consent: ConsentShare;
  forms: FormDay[];
  money: MoneySummary[];
  openReviewTasks: number;
  events: UpcomingEvent[];
  notifications: NotificationItem[];
}

/**
 * The home dashboard (docs/decisions.md, "Home dashboard") of a workspace for a period: every figure from
 * kept aggregates or an indexed range, sent together on the caller's transaction.
 */
export async function getDashboard(
  db: Db,
  input: { workspaceId: string; userId: string; period: Period },
): Promise<Dashboard> {
  const { workspaceId, period } = input;
  const [bySource, consent, forms, money, tasks, events, notifications] = await Promise.all([
    contactsBySource(db, { workspaceId, period }),
    consentShare(db, { workspaceId }),
    formActivity(db, { workspaceId, period }),
    moneySummary(db, { workspaceId, period }),
    openReviewTasks(db, { workspaceId }),
    upcomingEvents(db, { workspaceId }),
    listNotifications(db, { workspaceId, userId: input.userId, limit: 5 }),
  ]);
  return {
    period,
    contactsBySource: bySource,
    consent,
    forms,
    money,
    openReviewTasks: tasks,
    events,
    notifications,
  };
}
