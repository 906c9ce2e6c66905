/**
 * The public events benchmarks' calendar (spec 4.14): `count` events of a workspace, half ended and half
 * upcoming, four in five published, every third with paid ticket classes.
 */
export function benchEvents(workspaceId: string, count: number) {
  const day = 86_400_000;
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(Date.now() + (i - count / 2) * day + 3_600_000);
    return {
      workspace_id: workspaceId,
      name: `Event ${i}`,
      description: `<p>Event number <strong>${i}</strong>: talks, food and music.</p>`,
      location: i % 4 === 0 ? "Online" : `Hall ${i % 7}, 1 Main St, Springfield`,
      start_time: start,
      end_time: new Date(start.getTime() + 3 * 3_600_000),
      timezone: "America/New_York",
      is_published: i % 5 !== 0,
      ticket_price: i % 3 === 0 ? "25.00" : null,
      ticket_class_count: i % 3 === 0 ? 1 + (i % 2) : 0,
    };
  });
}
