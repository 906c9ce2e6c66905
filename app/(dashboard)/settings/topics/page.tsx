import type { Metadata } from "next";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { listTopics, topicSubscriberCounts } from "@/lib/consent/topics";
import { TopicForm } from "@/components/settings/topic-forms";
import { createTopicAction, updateTopicAction } from "./actions";

export const metadata: Metadata = { title: "Topics" };

/**
 * The workspace's subscription topics (docs/decisions.md, "Subscription topics"): what people
 * subscribe to, per topic, in forms and the preference centre; a broadcast goes to one.
 * Owners and admins change them; members see them.
 */
export default async function TopicsPage() {
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const { topics, counts } = await withUser(ctx.claims, async (db) => ({
    topics: await listTopics(db, workspaceId),
    counts: await topicSubscriberCounts(db, workspaceId),
  }));
  const admin = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <h1>Topics</h1>
      <p>
        Topics let people choose what they receive, for example a newsletter but not event announcements. Each
        unsubscribe link leaves the topic its broadcast was sent to; the recipient&apos;s preference page
        lists every topic. A contact is subscribed while any topic is on.
      </p>
      {topics.length === 0 ? (
        <div className="card empty">
          No topics yet: every subscribed contact receives every broadcast. Your first topic will hold
          everyone already subscribed.
        </div>
      ) : (
        topics.map((topic) => (
          <section key={topic.id} className="card stack" aria-labelledby={`topic-${topic.id}`}>
            <h2 id={`topic-${topic.id}`}>
              {topic.name} <code>{topic.key}</code>
            </h2>
            <p className="hint">
              {counts.get(topic.id) ?? 0} subscribed{topic.default_on ? " · on by default" : ""}
            </p>
            {admin ? (
              <TopicForm action={updateTopicAction} topic={topic} />
            ) : (
              topic.description && <p>{topic.description}</p>
            )}
          </section>
        ))
      )}
      {admin ? (
        <section className="card stack" aria-labelledby="new-topic">
          <h2 id="new-topic">Add a topic</h2>
          <TopicForm action={createTopicAction} />
        </section>
      ) : (
        <p className="hint">Only owners and admins can add or change topics.</p>
      )}
    </>
  );
}
