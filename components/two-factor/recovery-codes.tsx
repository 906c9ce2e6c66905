/** Recovery codes, shown once: a list to copy, and a text file to keep (made in the browser). */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(
    `Recovery codes (each works once)\n\n${codes.join("\n")}\n`,
  )}`;
  return (
    <div className="stack" aria-labelledby="recovery-heading">
      <h3 id="recovery-heading">Your recovery codes</h3>
      <p className="hint">
        Each code signs you in once if you lose your phone. Keep them somewhere safe: they will not be shown
        again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes" style={{ fontFamily: "monospace" }}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p>
        <a className="button secondary" href={file} download="recovery-codes.txt">
          Download the codes
        </a>
      </p>
    </div>
  );
}
