INSERT INTO author (name) VALUES ('Le Guin'), ('Lem');
INSERT INTO book (author_id, title, published) VALUES
  (1, 'The Dispossessed', DATE '1974-05-01'),
  (2, 'Solaris', DATE '1961-01-01');
