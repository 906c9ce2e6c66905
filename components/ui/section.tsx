import Link from "next/link";

/** A titled part of a page: a <section> named by its heading (`card` draws it as a card). */
export function Section({
  id,
  title,
  level = 2,
  card = true,
  children,
}: {
  id: string;
  title: React.ReactNode;
  level?: 2 | 3;
  card?: boolean;
  children: React.ReactNode;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className={card ? "card stack" : "stack"} aria-labelledby={id}>
      <Heading id={id} style={{ margin: 0 }}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** A page's title with its main actions beside it; `create` is the "New …" link, when allowed. */
export function PageHeader({
  title,
  create,
  children,
}: {
  title: React.ReactNode;
  create?: { href: string; label: string } | false;
  children?: React.ReactNode;
}) {
  return (
    <div className="topbar">
      <h1 style={{ margin: 0 }}>{title}</h1>
      {create && (
        <Link className="button" href={create.href}>
          {create.label}
        </Link>
      )}
      {children}
    </div>
  );
}
