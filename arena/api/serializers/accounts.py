"""Users, tokens and games."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
    validate_password,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework import serializers

from arena.api.serializers.common import CheckedCharField

# --- accounts -------------------------------------------------------------------------------


USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length
USERNAME_TAKEN = "A user with that username already exists."


def password_rule() -> dict[str, Any]:
    # validate() runs Django's configured password validators; the schema states the length.
    lengths = [
        validator.min_length
        for validator in get_default_password_validators()
        if isinstance(validator, MinimumLengthValidator)
    ]
    return {
        "minLength": max(lengths, default=1),
        "description": "checked by the site's password validators: for instance not a common "
        "password, not only digits, not close to the username",
    }


class UserCreateSerializer(serializers.ModelSerializer):
    password = CheckedCharField(
        write_only=True, style={"input_type": "password"}, rule=password_rule
    )

    class Meta:
        model = User
        fields = ["id", "username", "password"]
        read_only_fields = ["id"]

    def validate_username(self, value: str) -> str:
        # create_user stores the NFKC form ("ａｄａ" -> "ada", "ﬁ" -> "fi"), so check that
        # form: a look-alike of a taken name, or a name that grows past the column, used to
        # reach the database's constraints (a 500).
        username = User.normalize_username(value)
        if len(username) > USERNAME_MAX_LENGTH:
            raise serializers.ValidationError(
                f"Ensure this field has no more than {USERNAME_MAX_LENGTH} characters."
            )
        if User.objects.filter(username=username).exists():
            raise serializers.ValidationError(USERNAME_TAKEN)
        return username

    def validate(self, attrs):
        try:
            validate_password(attrs["password"], User(username=attrs["username"]))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs

    def create(self, validated_data):
        try:
            with transaction.atomic():
                return User.objects.create_user(**validated_data)
        except IntegrityError:
            # Two registrations of one name raced past validate_username.
            raise serializers.ValidationError({"username": [USERNAME_TAKEN]}) from None


class UserSerializer(serializers.ModelSerializer):
    is_organiser = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["id", "username", "is_organiser"]

    def get_is_organiser(self, user) -> bool:
        from arena.accounts import is_organiser

        return is_organiser(user)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send it as the header "Authorization: Token <key>"')


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    prefix = serializers.CharField(read_only=True, help_text="the key's first 14 characters")
    created_at = serializers.DateTimeField(read_only=True)


class NewApiTokenSerializer(ApiTokenSerializer):
    key = serializers.CharField(
        read_only=True,
        help_text='shown in this answer only; send it as the header "Authorization: Token <key>"',
    )


class ApiTokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=64, help_text="what the token is for: laptop, ci")


class VersionSerializer(serializers.Serializer):
    protocol = serializers.IntegerField(help_text="the bot protocol version the arena speaks")
    oldest_sdk = serializers.CharField(help_text="the oldest `arena` SDK the arena accepts")


# --- games ----------------------------------------------------------------------------------


class GameSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    cooperative = serializers.BooleanField()
    options = serializers.DictField(help_text="option name: default value")
