"""Pure tournament maths (no ORM): schedules and standings."""
