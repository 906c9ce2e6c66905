/** The frame of the public recipient pages: one centred card, readable without the dashboard. */
export function RecipientCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
