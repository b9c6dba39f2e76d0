import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { settingName } from '../functions/config/settingNames';
import { SEED_KEY_SUFFIX, TABLE_KEY_SCHEMA } from '../functions/store/dynamoStore';

type Configurable = IFunction & { addEnvironment(key: string, value: string): unknown };

export interface SeedTableProps {
  /** The function that creates games and rolls: it writes a new game's seed and reads it back. */
  commands: Configurable;
  /** Functions that roll for games already created (the reveal function of beacon games): they read seeds, never write one. */
  readers: Configurable[];
  /** The sweep of abandoned games: it deletes a swept game's seed, and can neither read it nor write any item. */
  sweeper?: Configurable;
}

/**
 * The games' sealed server seeds in a table of their own (docs/deploy.md#keys-and-who-can-use-them):
 * no function that only reads has any grant on it, so no future Allow on the game table (a
 * Scan, PartiQL) can reach a seed. Same key shape as the game table (`<game>#seed`, sk 0).
 */
export function addSeedTable(scope: Construct, props: SeedTableProps): Table {
  const seeds = new Table(scope, 'Seeds', {
    partitionKey: { name: TABLE_KEY_SCHEMA.KeySchema[0].AttributeName, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEY_SCHEMA.KeySchema[1].AttributeName, type: AttributeType.NUMBER },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const seedItems = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`] } };
  // A game's creation puts its seed in the same transaction as its other items (TransactWriteItems is authorized as PutItem).
  props.commands.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], resources: [seeds.tableArn], conditions: seedItems }));
  for (const reader of props.readers) reader.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [seeds.tableArn], conditions: seedItems }));
  if (props.sweeper) {
    props.sweeper.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [seeds.tableArn],
        // ReturnValues ALL_OLD would hand the deleted seed back: only NONE is allowed.
        conditions: { ...seedItems, StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } },
      }),
    );
    props.sweeper.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PartiQLSelect', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
        resources: [seeds.tableArn],
      }),
    );
  }
  for (const fn of [props.commands, ...props.readers, ...(props.sweeper ? [props.sweeper] : [])]) fn.addEnvironment(settingName('seedTableName'), seeds.tableName);
  return seeds;
}
