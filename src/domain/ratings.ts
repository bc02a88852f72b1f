// A list's rating settings and the fields SharePoint gives a list that has them. SharePoint
// keeps the setting in the root folder's property bag (`Ratings_VotingExperience`: "Ratings",
// "Likes" or "") and, when it is turned on, adds the six site columns of its "Content Feedback"
// group to the list (ids and names as SharePoint's; docs/compatibility.md). Their values are
// derived from the item's ratings and likes (store/comments.ts), never written by clients.

import type { NewField, StoredValue } from './model.ts';

export type RatingExperience = '' | 'Ratings' | 'Likes';

/** A stored or sent setting as one of the three (anything else: none). */
export function ratingExperienceOf(value: unknown): RatingExperience {
  return value === 'Ratings' || value === 'Likes' ? value : '';
}

/** The six rating fields' ids (SharePoint's, lower case). */
export const RATING_FIELD_IDS = {
  AverageRating: '5a14d1ab-1513-48c7-97b3-657a5ba6c742',
  RatingCount: 'b1996002-9167-45e5-a4df-b2c41c6723c7',
  RatedBy: '4d64b067-08c3-43dc-a87b-8b8e01673313',
  Ratings: '434f51fb-ffd2-4a0e-a03b-ca3131ac67ba',
  LikesCount: '6e4d832b-f610-41a8-b3e0-239608efda41',
  LikedBy: '2cdcd5eb-846d-4f4d-9aaf-73e8e73c7312',
} as const;

export type RatingFieldName = keyof typeof RATING_FIELD_IDS;

const feedback = (internalName: RatingFieldName, title: string, kind: NewField['kind'], hidden: boolean, description = ''): NewField => ({
  internalName, title, kind, required: false, indexed: false, hidden, readOnly: true, id: RATING_FIELD_IDS[internalName],
  options: { group: 'Content Feedback', ...(description ? { description } : {}) },
});

/** What turning ratings on adds to a list, in SharePoint's order (either experience adds all six). */
export const RATING_FIELDS: readonly NewField[] = [
  feedback('AverageRating', 'Rating (0-5)', 'Number', false, 'Average value of all the ratings that have been submitted'),
  feedback('RatingCount', 'Number of Ratings', 'Integer', false, 'Number of ratings submitted'),
  feedback('RatedBy', 'Rated By', 'UserMulti', true, 'Users rated the element.'),
  feedback('Ratings', 'User ratings', 'Note', true, 'User ratings for the item'),
  feedback('LikesCount', 'Number of Likes', 'Integer', false),
  feedback('LikedBy', 'Liked By', 'UserMulti', false),
];

/** One user's rating of an item, or like of it, in the order they were given. */
export interface RatingRow { userId: number; rating: number }
export interface LikeRow { userId: number }

/**
 * The stored values of the rating fields for an item with these ratings and likes. An item no
 * one rated has no average (null) but a count of 0; no likes: 0 and no one.
 */
export function ratingValues(ratings: readonly RatingRow[], likes: readonly LikeRow[]): Record<RatingFieldName, StoredValue> {
  const sum = ratings.reduce((n, r) => n + r.rating, 0);
  return {
    AverageRating: ratings.length ? sum / ratings.length : null,
    RatingCount: ratings.length,
    RatedBy: ratings.length ? JSON.stringify(ratings.map((r) => r.userId)) : null,
    // As SharePoint writes it: each rating, in RatedBy's order, followed by a comma.
    Ratings: ratings.length ? ratings.map((r) => `${r.rating},`).join('') : null,
    LikesCount: likes.length,
    LikedBy: likes.length ? JSON.stringify(likes.map((l) => l.userId)) : null,
  };
}
