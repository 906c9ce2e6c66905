import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

test("import a CSV whose headers are not ours: map the columns, read the preview, import, see the contacts", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await newAccount(page, { firstName: "Mara", lastName: "Mapper", workspaceName: "Mara's Mapping" });
  await page.goto("/contacts/import");
  await expect(page.getByRole("link", { name: "Download a sample CSV" })).toHaveAttribute(
    "href",
    "/api/contacts/import/sample",
  );
  const csv = [
    "Correo,Nombre,Apellido,Etiquetas,Comentario,Interno",
    'ana@example.com,Ana,García,"socia; Prensa",Llamar en mayo,x1',
    "no-es-correo,Mal,Fila,,,x2",
    "luis@example.com,Luis,Pérez,,,x3",
  ].join("\n");
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "socios.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });

  // nothing matches by name: no email column yet, and the import cannot start
  await expect(page.getByRole("alert").getByText(/The file has no email column/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Import socios.csv" })).toBeDisabled();

  await page.getByLabel("Correo", { exact: true }).selectOption({ label: "Email" });
  await page.getByLabel("Nombre", { exact: true }).selectOption({ label: "First name" });
  await page.getByLabel("Apellido", { exact: true }).selectOption({ label: "Last name" });
  await page.getByLabel("Etiquetas", { exact: true }).selectOption({ label: "Tags (split on ; or ,)" });
  await page.getByLabel("Comentario", { exact: true }).selectOption({ label: "Note on the contact" });

  const preview = page.getByRole("table", { name: "Preview of the contacts" });
  await expect(
    preview.getByRole("row", { name: /ana@example\.com\s+Ana\s+García\s+socia, Prensa\s+Llamar en mayo/ }),
  ).toBeVisible();
  await expect(preview.getByRole("row", { name: /luis@example\.com\s+Luis\s+Pérez/ })).toBeVisible();
  await expect(page.getByText("3 rows, 2 to import, 1 to skip.")).toBeVisible();
  await expect(
    page.getByRole("row", { name: /3\s+no-es-correo\s+Email is not a valid address\./ }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Import socios.csv" }).click();
  await expect(page.getByText("Import finished: 2 created, 0 updated, 1 skipped.")).toBeVisible();

  await page.goto("/contacts");
  await expect(page.getByRole("link", { name: "Ana García" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Luis Pérez" })).toBeVisible();

  // the same columns again: the saved mapping is proposed, ready to import
  await page.goto("/contacts/import");
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "socios2.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByText(/mapped as last time/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Import socios2.csv" })).toBeEnabled();
});
