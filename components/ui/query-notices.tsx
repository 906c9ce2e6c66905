/**
 * A page's outcome after a redirect, read from its query string: `?error=<code>` as an alert
 * (the code's text, or `errors` itself when one text fits all), and `?<name>=1` as the
 * success `notices[name]`.
 */
export function QueryNotices({
  query,
  errors = {},
  notices = {},
}: {
  query: Record<string, string | undefined>;
  errors?: Record<string, string> | string;
  notices?: Record<string, string>;
}) {
  const error = query.error
    ? typeof errors === "string"
      ? errors
      : (errors[query.error] ?? "Something went wrong.")
    : null;
  return (
    <>
      {error && (
        <div role="alert" className="alert error">
          {error}
        </div>
      )}
      {Object.entries(notices).map(
        ([name, text]) =>
          query[name] && (
            <div key={name} role="status" className="alert success">
              {text}
            </div>
          ),
      )}
    </>
  );
}
