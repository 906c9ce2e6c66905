/** Custom fields per workspace: the interface other areas use (docs/decisions.md, "Custom fields"). */
export * from "./types";
export { listCustomFields, getCustomField } from "./list-custom-fields";
export {
  validateCustomFieldValues,
  customFieldValueSchema,
  invalidCustomFields,
  isEmptyValue,
  type ValidateOptions,
} from "./validate-custom-field-values";
export { parseCustomFieldText, parseCustomFieldTexts } from "./parse-custom-field-text";
export { writeCustomFieldValues, changedKeys, type CustomFieldsChange } from "./write-custom-field-values";
export { customFieldsDbRefusal } from "./db-refusal";
export { customFieldFilterSql, checkCustomFieldFilter, type CustomFieldFilter } from "./filter-sql";
