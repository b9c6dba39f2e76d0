// A JSON schema as GET /rulesets publishes it: the parts the forms read.
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  allOf?: JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  /** 'json': a document a person pastes whole (a combat table), shown as one JSON box. */
  'x-form'?: string;
}
